import http from 'node:http';
import { HAE_FILES, haeBytes } from '../hae/hae-files.js';
import { type ApiResponse, startServer, type TestServer } from '../helpers/server.js';

// the generated HAE payloads are listed once, in test/hae/hae-files.ts
export { HAE_FILES, haeBytes };

/** A card subscribed to an HAE metric (read-only from the web app, as docs/HEALTH-AUTO-EXPORT.md recommends). */
export function haeCard(
  id: string,
  metric: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    $schema: 'klebb.datafile.v1',
    meta: {
      id,
      label: `HAE ${metric}`,
      ingest: { source: 'hae', metric },
      writeable: { fromWebapp: false },
      ...extra,
    },
    description: `${metric} from Health Auto Export`,
  };
}

/** The five cards of the main metric families (two heart-rate metrics: older files only have the walking average). */
export const FAMILY_CARDS: [string, string][] = [
  ['steps', 'step_count'],
  ['sleep', 'sleep_analysis'],
  ['weight', 'weight_body_mass'],
  ['heart', 'heart_rate'],
  ['walking-heart', 'walking_heart_rate_average'],
  ['workouts', 'workouts'],
];

/** A running server with an HAE token. */
export interface IngestServer extends TestServer {
  haeToken: string;
  /** POST the webhook with the HAE token (or `token`). */
  push(body: Buffer | string, token?: string): Promise<ApiResponse>;
  /** POST the webhook a CSV body (`text/csv`) with the HAE token. */
  pushCsv(csv: string): Promise<ApiResponse>;
  /** The card's data rows. */
  rows(id: string): Promise<Record<string, unknown>[]>;
  /** Creates a card; throws unless 201. */
  createCard(manifest: Record<string, unknown>): Promise<ApiResponse>;
  /** Uploads an Apple Health export.xml (the sign-in of the test server). */
  importExport(xml: Buffer | string): Promise<ApiResponse>;
  /**
   * Uploads an export.xml every record type of which Klebb knows; the answer's body.
   * @throws unless 200 with no unmapped type.
   */
  importKnown(xml: string): Promise<Record<string, unknown>>;
}

/** What one `<Record/>` of export.xml says; `end` is `start` and `created` is `end` unless given. */
export interface HealthRecordLine {
  type: string;
  value: string;
  start: string;
  end?: string;
  created?: string;
  unit?: string;
  source?: string;
  sourceVersion?: string;
  /** Child elements (`<MetadataEntry …/>`), written inside the record. */
  inner?: string;
}

/** One `<Record …/>` line of an Apple Health export.xml, as the phone writes it. */
export function healthRecord(r: HealthRecordLine): string {
  const end = r.end ?? r.start;
  const attrs = [
    `type="${r.type}"`,
    `sourceName="${r.source ?? 'Health'}"`,
    r.sourceVersion ? `sourceVersion="${r.sourceVersion}"` : '',
    r.unit ? `unit="${r.unit}"` : '',
    `creationDate="${r.created ?? end}"`,
    `startDate="${r.start}"`,
    `endDate="${end}"`,
    `value="${r.value}"`,
  ].filter(Boolean);
  return r.inner ? ` <Record ${attrs.join(' ')}>${r.inner}</Record>` : ` <Record ${attrs.join(' ')}/>`;
}

/** An export.xml holding `records` (from healthRecord), in the phone's `locale`. */
export function exportXml(records: string[], opts: { locale?: string; exportDate?: string } = {}): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<HealthData locale="${opts.locale ?? 'en_US'}">`,
    ...(opts.exportDate ? [` <ExportDate value="${opts.exportDate}"/>`] : []),
    ...records,
    '</HealthData>',
    '',
  ].join('\n');
}

/** A Health Auto Export push body (JSON text) holding these metric blocks. */
export function metricsPush(metrics: unknown[]): string {
  return JSON.stringify({ data: { metrics } });
}

/**
 * Starts a server, generates its HAE token and creates `cards` ([id, metric] pairs). The file
 * watcher is off unless `watch` is true (tests of hand edits). `home`: a home made beforehand
 * (the caller removes it).
 */
export async function startIngestServer(
  opts: { cards?: [string, string][]; env?: Record<string, string>; watch?: boolean; home?: string } = {},
): Promise<IngestServer> {
  const srv = await startServer({ watch: opts.watch ?? false, env: opts.env, home: opts.home });
  const t = await srv.api('/api/health-auto-export/token', { method: 'POST' });
  if (t.status !== 201) throw new Error(`token: ${t.status} ${t.text}`);
  const s: IngestServer = Object.assign(srv, {
    haeToken: t.body.token as string,
    push: (body: Buffer | string, token?: string) =>
      srv.api('/api/health-auto-export', {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
        token: token ?? (t.body.token as string),
      }),
    pushCsv: (csv: string) =>
      srv.api('/api/health-auto-export', {
        method: 'POST',
        body: csv,
        headers: { 'content-type': 'text/csv' },
        token: t.body.token as string,
      }),
    async rows(id: string) {
      const r = await srv.api(`/api/manifests/${id}/data`);
      if (r.status !== 200) throw new Error(`rows of ${id}: ${r.status} ${r.text}`);
      return (r.body.data ?? []) as Record<string, unknown>[];
    },
    importExport: (xml: Buffer | string) =>
      srv.api('/api/apple-health/import', {
        method: 'POST',
        body: typeof xml === 'string' ? Buffer.from(xml) : xml,
        headers: { 'content-type': 'application/xml' },
      }),
    async importKnown(xml: string) {
      const r = await s.importExport(xml);
      if (r.status !== 200) throw new Error(`import: ${r.status} ${r.text}`);
      const unmapped = JSON.stringify(r.body.unmappedTypes);
      if (unmapped !== '{}') throw new Error(`import: record types left unmapped: ${unmapped}`);
      return r.body as Record<string, unknown>;
    },
    async createCard(manifest: Record<string, unknown>) {
      const r = await srv.api('/api/manifests', { json: manifest });
      if (r.status !== 201)
        throw new Error(`create ${JSON.stringify(manifest).slice(0, 80)}: ${r.status} ${r.text}`);
      return r;
    },
  });
  for (const [id, metric] of opts.cards ?? []) await s.createCard(haeCard(id, metric));
  return s;
}

/** The answer of a raw HTTP request: status, headers and the body text. */
export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

/**
 * POSTs `pieces` as separate writes (`gapMs` apart, so they arrive as separate TCP chunks), with
 * Content-Length when `contentLength` is true, else chunked, on a keep-alive connection. When the
 * response arrives before everything is sent, the rest is still sent (unless `stopOnResponse`).
 * Resolves once the response is in and the request is done: `piecesSent` is how many pieces had
 * gone out when the response began, `piecesSentTotal` in all; `lateError` any error after the response (a reset).
 */
export function rawPost(
  url: string,
  pathname: string,
  pieces: Buffer[],
  opts: {
    token?: string;
    contentLength?: boolean;
    gapMs?: number;
    stopOnResponse?: boolean;
    headers?: Record<string, string>;
  } = {},
): Promise<RawResponse & { piecesSent: number; piecesSentTotal: number; lateError?: Error }> {
  const u = new URL(url);
  const total = pieces.reduce((n, p) => n + p.length, 0);
  // closed when done, so the server never waits on this client's idle connection at shutdown
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return new Promise<RawResponse & { piecesSent: number; piecesSentTotal: number; lateError?: Error }>(
    (resolve, reject) => {
      let sent = 0;
      let sentAtResponse = 0;
      let responded = false;
      let response: RawResponse | undefined;
      let finished = false;
      let lateError: Error | undefined;
      const settle = () => {
        // resolve once the response is in and the request is done sending (or failed)
        if (response && (finished || lateError || opts.stopOnResponse)) {
          resolve({
            ...response,
            piecesSent: sentAtResponse,
            piecesSentTotal: sent,
            ...(lateError ? { lateError } : {}),
          });
        }
      };
      const req = http.request(
        {
          host: u.hostname,
          port: u.port,
          path: pathname,
          method: 'POST',
          // a keep-alive connection, as phones use (with `Connection: close` Node's server closes
          // the socket once it has answered, so a client still sending would see a reset after the 413)
          agent,
          headers: {
            'content-type': 'application/json',
            ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
            ...(opts.contentLength ? { 'content-length': String(total) } : {}),
            ...opts.headers,
          },
        },
        (res) => {
          sentAtResponse = sent;
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            responded = true;
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown;
            try {
              body = JSON.parse(text);
            } catch {
              body = undefined;
            }
            response = { status: res.statusCode ?? 0, headers: res.headers, text, body };
            settle();
          });
          res.on('error', reject);
        },
      );
      req.on('error', (err) => {
        if (!responded) reject(err);
        else {
          lateError = err;
          settle();
        }
      });
      req.on('finish', () => {
        finished = true;
        settle();
      });
      const next = () => {
        if (responded && opts.stopOnResponse) {
          req.destroy();
          return;
        }
        if (sent === pieces.length) {
          req.end();
          return;
        }
        const piece = pieces[sent++];
        req.write(piece, () => setTimeout(next, opts.gapMs ?? 20));
      };
      req.flushHeaders();
      setTimeout(next, opts.gapMs ?? 20);
    },
  ).finally(() => agent.destroy());
}

/** How `minuteHeartRateBody` spells its points: the UTC offset written, and each minute's average. */
export interface MinuteHeartRateShape {
  /** The offset each timestamp carries, e.g. `+0000`. */
  offset: string;
  /** The average of minute `m` of day `d` (Min and Max are set around it). */
  avg(d: number, m: number): number;
  /** Below and above the average, for Min and Max. */
  spread: [number, number];
}

/**
 * A Health Auto Export body of `days` days of heart rate, one point a minute from 2025-06-01,
 * shaped like the app's minute-level export: big enough for the streamed path from about 30 days.
 */
export function minuteHeartRateBody(days: number, shape: MinuteHeartRateShape): string {
  const points: string[] = [];
  const [below, above] = shape.spread;
  for (let d = 0; d < days; d++) {
    const day = new Date(Date.UTC(2025, 5, 1) + d * 86_400_000).toISOString().slice(0, 10);
    for (let m = 0; m < 1440; m++) {
      const hh = String(Math.floor(m / 60)).padStart(2, '0');
      const mm = String(m % 60).padStart(2, '0');
      const avg = shape.avg(d, m);
      points.push(
        `{"date":"${day} ${hh}:${mm}:00 ${shape.offset}","Min":${avg - below},"Avg":${avg},"Max":${avg + above},"source":"Kim’s Apple Watch"}`,
      );
    }
  }
  return `{"data":{"metrics":[{"name":"heart_rate","units":"count/min","data":[${points.join(',')}]}]}}`;
}
