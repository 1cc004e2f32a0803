/**
 * Every webhook push that is refused or read nothing shows in `GET /api/health-auto-export/status`
 * as `lastFailedAttempt` (time, HTTP status, code, what was wrong), before or after a good push,
 * and goes once a push reads something again. A refusal changes no stored data, and the record
 * never quotes the refused body (the parser's message does; the record leaves that out).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** Text that must never reach the record: the first characters of a refused body. */
const SECRET = 'Zq9secret';

const good = (day: string, qty: number) =>
  JSON.stringify({
    data: {
      metrics: [{ name: 'step_count', units: 'count', data: [{ date: `${day} 09:00:00 +0000`, qty }] }],
    },
  });

/** A push with the HAE token, `body` sent as `type`. */
async function send(s: IngestServer, body: string, type: string, token = s.haeToken) {
  return s.api('/api/health-auto-export', { method: 'POST', body, headers: { 'content-type': type }, token });
}

/** Everything a push could change: the samples, the pushes log, the card's rows. */
async function stored(s: IngestServer) {
  const db = s.inst.hae.samples;
  return {
    samples: db.count('step_count'),
    lastPush: (await s.api('/api/health-auto-export/status')).body.lastPush,
    rows: await s.rows('steps'),
  };
}

describe('a refused push shows as lastFailedAttempt', () => {
  it('broken JSON, CSV, an empty body, a form post, a wrong token, a body too large: each recorded, none changes data', async () => {
    const s = await startIngestServer({
      cards: [['steps', 'step_count']],
      env: { KLEBB_HAE_MAX_BYTES: '2000' },
    });
    srv = s;
    const status = async () => (await s.api('/api/health-auto-export/status')).body;

    // before any good push, a refusal shows too
    const first = await send(s, `${SECRET}{"data":`, 'application/json');
    expect(first.body.ok).toBe(false);
    const early = (await status()).lastFailedAttempt;
    expect(early).toMatchObject({ status: 200, payloadBytes: Buffer.byteLength(`${SECRET}{"data":`) });
    expect(early.error).toMatch(/^the body is not valid JSON; nothing was ingested/);

    expect((await send(s, good('2026-05-01', 100), 'application/json')).body.ok).toBe(true);
    expect((await status()).lastFailedAttempt).toBeUndefined();
    const before = await stored(s);

    const cases: {
      name: string;
      send: () => Promise<{ status: number }>;
      want: Record<string, unknown>;
      error: RegExp;
    }[] = [
      {
        name: 'broken JSON',
        send: () => send(s, `{"data": {"metrics": [${SECRET}`, 'application/json'),
        want: { status: 200 },
        error: /^the body is not valid JSON; nothing was ingested; it is kept as ingest\/quarantine\//,
      },
      {
        name: 'a CSV body',
        send: () => send(s, `${SECRET},steps\n2026-05-02,100\n`, 'text/csv'),
        want: { status: 200 },
        error: /not valid JSON.*It looks like CSV/,
      },
      {
        name: 'an empty body',
        send: () => send(s, '', 'application/json'),
        want: { status: 200, payloadBytes: 0 },
        error: /the body is empty/,
      },
      {
        name: 'a form post (the wrong content type and body)',
        send: () =>
          send(
            s,
            `--x\r\nContent-Disposition: form-data; name="${SECRET}"\r\n\r\n1\r\n--x--\r\n`,
            'multipart/form-data; boundary=x',
          ),
        want: { status: 200 },
        error: /It looks like CSV: set the automation's Export Format to JSON/,
      },
      {
        name: 'a wrong token',
        send: () => send(s, good('2026-05-03', 5), 'application/json', 'not-the-token'),
        want: { status: 401, code: 'UNAUTHORIZED', payloadBytes: null },
        error: /wrong Health Auto Export token/,
      },
      {
        name: 'a body too large',
        send: () =>
          send(s, JSON.stringify({ data: { metrics: [], pad: 'x'.repeat(3000) } }), 'application/json'),
        want: { status: 413, code: 'PAYLOAD_TOO_LARGE' },
        error: /larger than 2000 bytes/,
      },
    ];
    for (const c of cases) {
      const r = await c.send();
      const failed = (await status()).lastFailedAttempt;
      expect(failed, c.name).toMatchObject({ ...c.want, status: r.status });
      expect(failed.error, c.name).toMatch(c.error);
      expect(Date.parse(failed.receivedAt), c.name).toBeGreaterThan(Date.now() - 60_000);
      expect(JSON.stringify(failed), c.name).not.toContain(SECRET);
      expect(await stored(s), c.name).toEqual(before);
    }

    // the next push that reads something clears it
    expect((await send(s, good('2026-05-04', 7), 'application/json')).body.ok).toBe(true);
    expect((await status()).lastFailedAttempt).toBeUndefined();
  });
});
