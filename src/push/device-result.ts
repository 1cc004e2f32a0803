/**
 * What became of a test push on each device, in words a person can act on: the answer of
 * `POST /api/notifications/test` lists every device with its outcome and, when it did not get the
 * message, why (the push service's status and own words, src/push/push-reason.ts).
 */
import type { SendOutcome } from './push-sender.js';
import type { SubscriptionRow } from './subscription-store.js';

/** One device's outcome of a push. */
export interface DeviceResult {
  /** The first 12 characters of the subscription id (as in the notifications listing). */
  id: string;
  nickname: string | null;
  /** The push service's host. */
  host: string;
  result: SendOutcome['result'];
  /** The push service's last HTTP status (0: no answer). */
  status: number;
  /** Why it did not arrive, in words; null when it was sent. */
  reason: string | null;
}

/** Why `o` did not deliver, in words (null when it was sent). */
export function outcomeWords(o: SendOutcome): string | null {
  const said = o.reason ? `: ${o.reason}` : '';
  const http = `HTTP ${o.status}${said}`;
  switch (o.result) {
    case 'sent':
      return null;
    case 'gone':
      return o.status === 0
        ? 'its address is not one this server sends to, so it was removed; turn reminders on again on that device'
        : `its push service says this device is no longer subscribed (${http}), so it was removed; turn reminders on again on that device`;
    case 'refused':
      return o.status === 0
        ? 'its push service resolves to a private network address, which this server does not send to'
        : `its push service refused this server's signature (${http})`;
    case 'too-large':
      return `the message was too large for its push service, even made smaller (${http})`;
    case 'rejected':
      return `its push service turned the message down (${http})`;
    default:
      return o.status === 0
        ? `its push service could not be reached${o.reason ? ` (${o.reason})` : ''}; try again in a moment`
        : `its push service did not take it (${http}); try again in a moment`;
  }
}

/** The per-device results of one push to `subs` (in that order). */
export function deviceResults(subs: SubscriptionRow[], outcomes: SendOutcome[]): DeviceResult[] {
  const byId = new Map(outcomes.map((o) => [o.id, o]));
  return subs.flatMap((s) => {
    const o = byId.get(s.id);
    if (!o) return [];
    let host = '';
    try {
      host = new URL(s.endpoint).host;
    } catch {
      // a stored endpoint that is not a URL: no host to show
    }
    return [
      {
        id: s.id.slice(0, 12),
        nickname: s.nickname,
        host,
        result: o.result,
        status: o.status,
        reason: outcomeWords(o),
      },
    ];
  });
}

/**
 * Why a test push reached no device, in one sentence: no device receives reminders, or each
 * device's reason (named by its nickname, else its push service's host).
 */
export function notDeliveredWords(devices: number, results: DeviceResult[]): string {
  if (devices === 0)
    return 'No device receives reminders yet: turn them on in Settings › Notifications on the phone or browser that should get them.';
  const each = results
    .filter((r) => r.reason !== null)
    .map((r) => `${r.nickname ?? r.host}: ${r.reason}`)
    .join('; ');
  return `No device got it. ${each}.`;
}
