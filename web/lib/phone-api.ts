/**
 * The Health Auto Export routes the app reads (docs/API.md "Health Auto Export"): the token, the
 * status with the last push, the discoveries, the phone-fed cards, "Add a card" and "Fill <card>
 * from the phone". Also the words people see for a metric: the catalogue's label table
 * (`weight_body_mass` → "Body weight").
 */
import { metricLabel } from '../../src/ingest/hae/format/labels.js';
import { api } from './api.js';

/** `GET /api/health-auto-export/token`. */
export interface PhoneToken {
  token: string | null;
  lastRegeneratedAt: string | null;
}

/** One card of a push summary. */
export interface PushedCard {
  id: string;
  metric: string;
  rowsWritten: number;
  note?: string;
  /** Fields the card reads that its rows do not carry, with the ones they do. */
  misfits?: { reads: string; sends: string[] }[];
}

/** `lastPush` of the status. */
export interface LastPush {
  receivedAt: string;
  payloadBytes: number;
  samples: number;
  newSamples: number;
  skipped: number;
  subscribers: PushedCard[];
  availableUnsubscribed: string[];
  warnings: string[];
}

/** `GET /api/health-auto-export/status`. */
export interface PhoneStatus {
  /** null while config.json does not read (configProblem says why). */
  tokenSet: boolean | null;
  configProblem?: { code: string; error: string };
  endpointUrl: string;
  lastPush: LastPush | null;
  /** A newer push that was refused or read nothing (why), kept apart so the good one stays shown. */
  lastFailedAttempt?: {
    receivedAt: string;
    status: number;
    code?: string;
    error: string;
    payloadBytes: number | null;
    warnings: string[];
  };
}

/** One metric seen in pushes. */
export interface Discovery {
  metric: string;
  firstSeenAt: string;
  /** The name people read ("Body weight"). */
  label?: string;
  /** An existing card that shows the same thing, to fill from the phone instead of a new card. */
  fill?: { id: string; label: string };
}

/** `GET /api/health-auto-export/discoveries`. */
export interface Discoveries {
  undismissed: { supported: Record<string, Discovery[]>; unsupported: Discovery[] };
  dismissed: (Discovery & { dismissedAt: string; supported: boolean })[];
}

/** Something a phone-fed card reads that the phone does not send. */
export interface FitProblem {
  kind: 'field' | 'unit';
  where: string;
  reads: string;
  sends: string[];
  metric: string;
}

/** One entry of `GET /api/health-auto-export/cards`. */
export interface PhoneCard {
  id: string;
  label: string;
  emoji: string | null;
  metric: string;
  rowCount: number;
  latestDate: string | null;
  problems: FitProblem[];
}

/** The name people read for a metric: `weight_body_mass` → "Body weight", `step_count` → "Steps". */
export function metricName(metric: string): string {
  return metricLabel(metric);
}

/** The supported discoveries not hidden, oldest category first as the server lists them. */
export function newMetrics(d: Discoveries | undefined): Discovery[] {
  return d ? Object.values(d.undismissed.supported).flat() : [];
}

/**
 * One sentence per field or unit a card gets wrong, e.g. "The phone sends pct; this card reads
 * percent." (the same field read in several places is said once).
 */
export function fitSentences(problems: readonly FitProblem[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const p of problems) {
    const key = `${p.kind}:${p.reads}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(
      p.kind === 'unit'
        ? `The phone sends ${p.sends.join(', ')}; this card shows “${p.reads}”.`
        : `The phone sends ${p.sends.length ? p.sends.join(', ') : 'other values'}; this card reads ${p.reads}.`,
    );
  }
  return out;
}

/** Reads the discoveries. @throws ApiError. */
export const readDiscoveries = (signal?: AbortSignal) =>
  api<Discoveries>('/api/health-auto-export/discoveries', { signal });

/** Reads the phone-fed cards. @throws ApiError. */
export const readPhoneCards = (signal?: AbortSignal) =>
  api<{ cards: PhoneCard[] }>('/api/health-auto-export/cards', { signal });

/**
 * "Add a card" for `metric`, or with `card` "Fill <card> from the phone" (the existing card
 * follows the metric, filled at once from what was already received). @throws ApiError.
 */
export const addMetricCard = (metric: string, card?: string) =>
  api<{ ok: true; id: string; label: string; rowCount: number; template: string | null }>(
    '/api/health-auto-export/cards',
    { json: card === undefined ? { metric } : { metric, card } },
  );

/** Hides (`hide` true) or shows again a metric among the new ones. @throws ApiError. */
export const hideMetric = (metric: string, hide: boolean) =>
  api(`/api/health-auto-export/discoveries/${encodeURIComponent(metric)}/${hide ? 'dismiss' : 'unhide'}`, {
    method: 'POST',
  });
