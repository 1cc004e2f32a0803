/**
 * Settings › Notifications (`/settings/notifications`; docs/API.md "Notifications"):
 * - this device: whether it receives reminders, a switch to turn that on or off (asks the
 *   browser's permission), and on an iPhone not yet running the installed app, how to add Klebb
 *   to the Home Screen (iOS delivers Web Push only there, from iOS 16.4);
 * - quiet hours and a pause for all reminders;
 * - each card's reminders: on/off, private (the lock screen shows only "You have a reminder.")
 *   or shown, and a test push (one a minute per reminder).
 */
import { useState } from 'preact/hooks';
import { ErrorNote, Loading } from '../components/status.js';
import { Switch } from '../components/switch.js';
import { api } from '../lib/api.js';
import { deviceSubscribed, disablePush, enablePush, isIos, pushSupport } from '../lib/push.js';
import { useResource } from '../lib/use-resource.js';
import '../styles/views.css';

interface Reminder {
  id: string;
  card_id: string;
  label: string;
  card_label: string;
  card_emoji: string | null;
  title: string;
  trigger: { type: string; time: string; days?: string[] };
  privacy: 'private' | 'public';
  enabled: boolean;
  active: boolean;
  last_fired: string | null;
  last_fire_status: string | null;
}

interface Listing {
  notifications: Reminder[];
  quiet_hours: { start: string; end: string } | null;
  paused_until: string | null;
  devices: number;
  stopped_devices?: StoppedDevice[];
  tz: string;
}

interface StoppedDevice {
  id: string;
  nickname: string | null;
  host: string;
  user_agent: string | null;
  since: string | null;
  reason: string;
}

export function NotificationsView() {
  const res = useResource((signal) => api<Listing>('/api/notifications', { signal }), []);
  return (
    <section class="view view-settings view-notifications" aria-labelledby="view-title">
      <p class="view-back">
        <a href="/settings">‹ Settings</a>
      </p>
      <h1 class="view-title" id="view-title">
        Notifications
      </h1>
      <ThisDevice onChange={res.reload} />
      {!res.data ? (
        res.error ? (
          <ErrorNote error={res.error} onRetry={res.reload} />
        ) : (
          <Loading />
        )
      ) : (
        <>
          <StoppedDevices devices={res.data.stopped_devices ?? []} />
          <QuietAndPause listing={res.data} onSaved={res.reload} />
          <ReminderList listing={res.data} onChanged={res.set} />
        </>
      )}
    </section>
  );
}

function ThisDevice({ onChange }: { onChange(): void }) {
  const support = pushSupport();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const on = deviceSubscribed.value === true;
  async function toggle(next: boolean) {
    setBusy(true);
    setProblem(null);
    try {
      if (next) await enablePush();
      else await disablePush();
      onChange();
    } catch (err) {
      setProblem((err as Error).message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <section class="panel" aria-labelledby="device-title">
      <h2 class="panel-title" id="device-title">
        This device
      </h2>
      {support === 'needs-install' ? (
        <div class="notice" data-ios-install="">
          <p>
            <strong>On an iPhone or iPad, reminders arrive only in the installed app.</strong>
          </p>
          <ol>
            <li>Tap the Share button in Safari (the square with an arrow).</li>
            <li>Choose “Add to Home Screen”, then “Add”.</li>
            <li>Open Klebb from the Home Screen and come back here to turn reminders on.</li>
          </ol>
          <p class="form-hint">This needs iOS or iPadOS 16.4 or later.</p>
        </div>
      ) : support === 'unsupported' ? (
        <p>This browser cannot receive notifications. Try another browser or install the app.</p>
      ) : (
        <div class="setting-row">
          <span>
            Reminders on this device
            <span class="form-hint" data-device-state="">
              {deviceSubscribed.value === null ? ' …' : on ? ' Receiving' : ' Off'}
            </span>
          </span>
          <Switch
            checked={on}
            label="Receive reminders on this device"
            busy={busy}
            onChange={(next) => void toggle(next)}
          />
        </div>
      )}
      {isIos() && support === 'supported' && (
        <p class="form-hint">Running as the installed app: reminders can arrive.</p>
      )}
      {problem && (
        <p class="form-error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}

/** Devices reminders no longer go to, with why and what to do (nothing when there are none). */
function StoppedDevices({ devices }: { devices: StoppedDevice[] }) {
  if (devices.length === 0) return null;
  return (
    <section class="panel" aria-labelledby="stopped-title" data-stopped-devices="">
      <h2 class="panel-title" id="stopped-title">
        Reminders stopped on {devices.length === 1 ? 'a device' : `${devices.length} devices`}
      </h2>
      <ul>
        {devices.map((d) => (
          <li key={d.id}>
            <strong>{d.nickname ?? d.user_agent ?? d.host}</strong>
            {d.since ? ` since ${new Date(d.since).toLocaleString()}` : ''}: {d.reason}.
          </li>
        ))}
      </ul>
      <p class="form-hint">
        On that device, open Klebb and turn “Reminders on this device” off and on again; if they stop again,
        its browser's push service is the problem.
      </p>
    </section>
  );
}

const PAUSES: { label: string; hours: number }[] = [
  { label: '1 hour', hours: 1 },
  { label: '8 hours', hours: 8 },
  { label: '1 day', hours: 24 },
  { label: '1 week', hours: 24 * 7 },
];

function QuietAndPause({ listing, onSaved }: { listing: Listing; onSaved(): void }) {
  const [start, setStart] = useState(listing.quiet_hours?.start ?? '22:00');
  const [end, setEnd] = useState(listing.quiet_hours?.end ?? '07:00');
  const [problem, setProblem] = useState<string | null>(null);
  const paused =
    listing.paused_until && Date.parse(listing.paused_until) > Date.now() ? listing.paused_until : null;
  async function save(body: Record<string, unknown>) {
    setProblem(null);
    try {
      await api('/api/notifications/global-state', { json: body });
      onSaved();
    } catch (err) {
      setProblem((err as Error).message);
    }
  }
  return (
    <section class="panel" aria-labelledby="quiet-title">
      <h2 class="panel-title" id="quiet-title">
        Quiet hours and pause
      </h2>
      <div class="setting-row">
        <span>Quiet hours ({listing.tz})</span>
        <Switch
          checked={listing.quiet_hours !== null}
          label="Quiet hours"
          onChange={(next) => void save({ quiet_hours: next ? { start, end } : null })}
        />
      </div>
      <div class="quiet-times">
        <label>
          From{' '}
          <input type="time" value={start} onInput={(e) => setStart((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          to <input type="time" value={end} onInput={(e) => setEnd((e.target as HTMLInputElement).value)} />
        </label>
        <button type="button" class="button" onClick={() => void save({ quiet_hours: { start, end } })}>
          Save quiet hours
        </button>
      </div>
      <div class="setting-row">
        <span data-pause-state="">
          {paused ? `Paused until ${new Date(paused).toLocaleString()}` : 'Reminders are on'}
        </span>
        {paused ? (
          <button type="button" class="button" onClick={() => void save({ paused_until: null })}>
            Resume
          </button>
        ) : (
          <select
            aria-label="Pause all reminders"
            onChange={(e) => {
              const h = Number((e.target as HTMLSelectElement).value);
              if (h > 0) void save({ paused_until: new Date(Date.now() + h * 3_600_000).toISOString() });
            }}
          >
            <option value="0">Pause for…</option>
            {PAUSES.map((p) => (
              <option key={p.hours} value={p.hours}>
                {p.label}
              </option>
            ))}
          </select>
        )}
      </div>
      {problem && (
        <p class="form-error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}

function when(t: Reminder['trigger']): string {
  if (t.type === 'weekly') return `${t.time} on ${(t.days ?? []).join(', ')}`;
  if (t.type === 'schedule_due') return `${t.time} when doses are due`;
  return `${t.time} every day`;
}

function ReminderList({ listing, onChanged }: { listing: Listing; onChanged(l: Listing): void }) {
  const [note, setNote] = useState<Record<string, string>>({});
  if (listing.notifications.length === 0) {
    return (
      <section class="panel">
        <h2 class="panel-title">Reminders</h2>
        <p>No reminders yet. Ask the assistant, for example “remind me to log my sleep at 21:00”.</p>
      </section>
    );
  }
  async function change(r: Reminder, patch: { enabled?: boolean; privacy?: 'private' | 'public' }) {
    try {
      const res = await api<{ notification: Reminder }>('/api/notifications/state', {
        json: { id: r.id, ...patch },
      });
      onChanged({
        ...listing,
        notifications: listing.notifications.map((n) => (n.id === r.id ? { ...n, ...res.notification } : n)),
      });
    } catch (err) {
      setNote((m) => ({ ...m, [r.id]: (err as Error).message }));
    }
  }
  async function test(r: Reminder) {
    setNote((m) => ({ ...m, [r.id]: 'Sending…' }));
    try {
      const res = await api<{
        sent: number;
        devices: number;
        reason?: string;
        results?: { nickname: string | null; host: string; reason: string | null }[];
      }>('/api/notifications/test', {
        json: { id: r.id },
      });
      // a device that did not get it says why, by name
      const missed = (res.results ?? [])
        .filter((d) => d.reason !== null)
        .map((d) => ` ${d.nickname ?? d.host}: ${d.reason}.`)
        .join('');
      const text =
        res.sent === 0
          ? (res.reason ?? 'No device got it.')
          : `Sent to ${res.sent} of ${res.devices} device${res.devices === 1 ? '' : 's'}.${missed}`;
      setNote((m) => ({ ...m, [r.id]: text }));
    } catch (err) {
      setNote((m) => ({ ...m, [r.id]: (err as Error).message }));
    }
  }
  const byCard = new Map<string, Reminder[]>();
  for (const n of listing.notifications) byCard.set(n.card_id, [...(byCard.get(n.card_id) ?? []), n]);
  return (
    <>
      {[...byCard.values()].map((items) => (
        <section class="panel" key={items[0].card_id} aria-label={`Reminders of ${items[0].card_label}`}>
          <h2 class="panel-title">
            {items[0].card_emoji ? `${items[0].card_emoji} ` : ''}
            {items[0].card_label}
          </h2>
          <ul class="setting-list">
            {items.map((r) => (
              <li class="setting-row reminder-row" key={r.id} data-reminder-id={r.id}>
                <span>
                  <strong>{r.label}</strong>
                  <span class="form-hint">
                    {' '}
                    {when(r.trigger)}
                    {!r.active && ' (card off)'}
                  </span>
                  {note[r.id] && (
                    <span class="form-hint reminder-note" role="status">
                      {' '}
                      {note[r.id]}
                    </span>
                  )}
                </span>
                <span class="reminder-actions">
                  <label class="reminder-private">
                    <input
                      type="checkbox"
                      checked={r.privacy === 'private'}
                      onChange={(e) =>
                        void change(r, {
                          privacy: (e.target as HTMLInputElement).checked ? 'private' : 'public',
                        })
                      }
                    />{' '}
                    Private
                  </label>
                  <button type="button" class="button" onClick={() => void test(r)}>
                    Test
                  </button>
                  <Switch
                    checked={r.enabled}
                    label={`Reminder ${r.label}`}
                    onChange={(next) => void change(r, { enabled: next })}
                  />
                </span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}
