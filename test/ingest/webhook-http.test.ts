/**
 * The webhook's HTTP behaviour on the real server (docs/API.md
 * "The webhook"): 501 / 401 before the body is read, 413 while the body is still arriving (also for a
 * chunked body without Content-Length) with the client receiving the status rather than a reset,
 * a multi-byte character split across TCP writes, the streamed path for large bodies, and the
 * bounded quarantine of bodies that do not parse.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HAE_INLINE_MAX_BYTES, readHaeEnv } from '../../src/ingest/hae/env.js';
import { startServer } from '../helpers/server.js';
import { haeCard, type IngestServer, rawPost, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** One sleep night whose source carries multi-byte characters (2-byte ö, 3-byte ’, 4-byte emoji). */
const SOURCE = 'Jörg’s Apple Watch 🫀';
function sleepBody(source = SOURCE): string {
  return JSON.stringify({
    data: {
      metrics: [
        {
          name: 'sleep_analysis',
          units: 'hr',
          data: [
            {
              date: '2025-03-02 00:00:00 +0100',
              sleepStart: '2025-03-01 23:10:00 +0100',
              sleepEnd: '2025-03-02 07:10:00 +0100',
              core: 5,
              deep: 1,
              rem: 1.5,
              awake: 0.5,
              source,
            },
          ],
        },
      ],
    },
  });
}

function stepsBody(points: { date: string; qty: number }[]): string {
  return JSON.stringify({ data: { metrics: [{ name: 'step_count', units: 'count', data: points }] } });
}

describe('auth before the body', () => {
  it('501 {error: "ingest disabled"} when no token is set, 401 for a wrong or missing one', async () => {
    srv = await startIngestServer();
    const body = stepsBody([{ date: '2025-01-01 00:00:00 +0000', qty: 5 }]);
    expect((await srv.push(body, 'wrong-token')).status).toBe(401);
    const none = await srv.api('/api/health-auto-export', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(none.status).toBe(401);
    // the agent token of the global gate is not the HAE token
    expect((await srv.push(body)).status).toBe(200);
    expect((await srv.api('/api/health-auto-export/token', { method: 'DELETE' })).status).toBe(200);
    const off = await srv.push(body, srv.haeToken);
    expect(off.status).toBe(501);
    expect(off.body.error).toBe('ingest disabled');
  });

  it('the webhook is public to the global gate; the other HAE routes need the normal auth', async () => {
    srv = await startIngestServer();
    const table = srv.app.routeTable.filter(
      (r) => r.url.includes('health-auto-export') || r.url.includes('apple-health'),
    );
    const auth = Object.fromEntries(table.map((r) => [`${r.method} ${r.url}`, r.auth]));
    expect(auth['POST /api/health-auto-export']).toBe('public');
    for (const [k, v] of Object.entries(auth))
      if (k !== 'POST /api/health-auto-export') expect(v, k).toBe('session');
    expect(Object.keys(auth)).toHaveLength(12);
    // through a proxy (not local) and without the agent token, token management is refused
    const r = await srv.api('/api/health-auto-export/token', {
      headers: { 'x-forwarded-for': '203.0.113.5' },
    });
    expect(r.status).toBe(401);
  });
});

describe('413 over the limit', () => {
  it('KLEBB_HAE_MAX_BYTES is read with the rest of the environment; a declared Content-Length over it is refused at once', async () => {
    srv = await startIngestServer({ env: { KLEBB_HAE_MAX_BYTES: '2000' } });
    expect(srv.inst.hae.maxBytes).toBe(2000);
    const big = Buffer.alloc(5000, 0x20);
    const r = await rawPost(srv.url, '/api/health-auto-export', [big], {
      token: srv.haeToken,
      contentLength: true,
    });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(r.body.error).toMatch(/2000 bytes/);
    expect(readHaeEnv({}).maxBytes).toBe(100_000_000);
    expect(() => readHaeEnv({ KLEBB_HAE_MAX_BYTES: '10MB' })).toThrow(/KLEBB_HAE_MAX_BYTES/);
  });

  it('a chunked body without Content-Length growing past the limit gets 413 while it is still being sent, not a reset', async () => {
    srv = await startIngestServer();
    srv.inst.hae.maxBytes = 8000;
    const pieces = Array.from({ length: 40 }, () => Buffer.alloc(1000, 0x20));
    const r = await rawPost(srv.url, '/api/health-auto-export', pieces, { token: srv.haeToken, gapMs: 15 });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('PAYLOAD_TOO_LARGE');
    // answered from the data handler: the response came before the client had sent everything
    expect(r.piecesSent).toBeLessThan(pieces.length);
    // nothing was stored or spooled, and the server goes on answering
    expect(srv.inst.hae.samples.count()).toBe(0);
    expect(fs.readdirSync(srv.inst.hae.dirs.incoming)).toEqual([]);
    const ok = await srv.push(stepsBody([{ date: '2025-01-01 00:00:00 +0000', qty: 5 }]));
    expect(ok.status).toBe(200);
  });

  it('the client that keeps sending after the 413 is drained, not cut off', async () => {
    srv = await startIngestServer();
    srv.inst.hae.maxBytes = 3000;
    const pieces = Array.from({ length: 10 }, () => Buffer.alloc(1000, 0x20));
    const r = await rawPost(srv.url, '/api/health-auto-export', pieces, {
      token: srv.haeToken,
      gapMs: 5,
      contentLength: false,
    });
    expect(r.status).toBe(413);
    // every piece went out and the request ended cleanly: no reset, no broken pipe
    expect(r.piecesSent).toBeLessThan(pieces.length);
    expect(r.piecesSentTotal).toBe(pieces.length);
    expect(r.lateError).toBeUndefined();
  });
});

describe('bytes decoded once', () => {
  it('a multi-byte character split across two TCP writes survives (inline body)', async () => {
    srv = await startIngestServer({ cards: [['sleep', 'sleep_analysis']] });
    const bytes = Buffer.from(sleepBody(), 'utf8');
    // split inside the 3-byte ’ (E2 80 99) and inside the 4-byte emoji
    const q = bytes.indexOf(Buffer.from('’', 'utf8'));
    const e = bytes.indexOf(Buffer.from('🫀', 'utf8'));
    const pieces = [bytes.subarray(0, q + 1), bytes.subarray(q + 1, e + 2), bytes.subarray(e + 2)];
    const r = await rawPost(srv.url, '/api/health-auto-export', pieces, { token: srv.haeToken, gapMs: 40 });
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(true);
    const [row] = await srv.rows('sleep');
    expect(row.source).toBe(SOURCE);
    expect(row).toMatchObject({ date: '2025-03-02', hours: 7.5, bedTime: '23:10', wakeTime: '07:10' });
    expect(srv.inst.hae.samples.samplesFor('sleep_analysis', ['2025-03-02'])[0].source).toBe(SOURCE);
  });

  it('a body over the inline size is spooled and streamed; a character split at a read boundary survives', async () => {
    srv = await startIngestServer({ cards: [['sleep', 'sleep_analysis']] });
    // JSON allows whitespace between tokens: pad before "metrics" so that the body is over the
    // inline size and the ’ of the source straddles a 256 KiB read boundary of the spool file
    const text = sleepBody();
    const head = '{"data":';
    const rest = text.slice(head.length);
    const boundary = 256 * 1024;
    const offsetInRest = Buffer.byteLength(rest.slice(0, rest.indexOf('’')), 'utf8');
    let pad = HAE_INLINE_MAX_BYTES + 1000;
    const firstByte = Buffer.byteLength(head) + pad + offsetInRest;
    pad += boundary - 1 - (firstByte % boundary);
    const bytes = Buffer.from(head + ' '.repeat(pad) + rest, 'utf8');
    const at = bytes.indexOf(Buffer.from('’', 'utf8'));
    expect(at % boundary).toBe(boundary - 1);
    const pieces = [bytes.subarray(0, at + 2), bytes.subarray(at + 2)];
    const r = await rawPost(srv.url, '/api/health-auto-export', pieces, { token: srv.haeToken, gapMs: 40 });
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(true);
    expect((await srv.rows('sleep'))[0].source).toBe(SOURCE);
    expect(fs.readdirSync(srv.inst.hae.dirs.incoming)).toEqual([]);
  });

  it('a streamed body gives the same rows as the same body inline', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const points = Array.from({ length: 40 }, (_, i) => ({
      date: `2025-02-${String(1 + (i % 20)).padStart(2, '0')} ${String(8 + Math.floor(i / 20)).padStart(2, '0')}:00:00 +0100`,
      qty: 100 + i,
    }));
    const inline = Buffer.from(stepsBody(points));
    expect((await srv.push(inline)).status).toBe(200);
    const want = await srv.rows('steps');
    expect(want).toHaveLength(20);
    await srv.close();
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const padded = Buffer.concat([
      Buffer.from('{"data":'),
      Buffer.alloc(HAE_INLINE_MAX_BYTES + 10, 0x20),
      inline.subarray(8),
    ]);
    const r = await srv.push(padded);
    expect(r.status).toBe(200);
    expect(r.body.samples).toEqual({ received: 40, new: 40 });
    expect(await srv.rows('steps')).toEqual(want);
  });
});

describe('quarantine of bodies that do not parse', () => {
  it('keeps the exact bytes, answers 200 {ok: false, warning}, and keeps only the newest 5', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const dir = srv.inst.hae.dirs.quarantine;
    const bodies = Array.from({ length: 7 }, (_, i) =>
      Buffer.from(`{"data": {"metrics": [ {"name": "step_count", "ünits": ${i}`, 'utf8'),
    );
    for (const b of bodies) {
      const r = await srv.push(b);
      expect(r.status).toBe(200);
      expect(r.body.ok).toBe(false);
      expect(r.body.warning).toMatch(/not valid JSON.*ingest\/quarantine\//);
    }
    const kept = fs.readdirSync(dir).sort();
    expect(kept).toHaveLength(5);
    expect(kept.map((n) => fs.readFileSync(path.join(dir, n)))).toEqual(bodies.slice(2));
    expect(fs.statSync(path.join(dir, kept[0])).mode & 0o777).toBe(0o600);
    expect(srv.inst.hae.samples.count()).toBe(0);
  });

  it('a large body that breaks part way keeps what parsed before the break, and is quarantined whole', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const good = stepsBody([{ date: '2025-01-01 00:00:00 +0000', qty: 1234 }]);
    // `{"data":{"metrics":[{step block}, {"name":"x", <padding> ...broken`
    const broken = Buffer.from(
      `${good.slice(0, -3)},{"name":"heart_rate","data":[${' '.repeat(HAE_INLINE_MAX_BYTES)}{"date": oops}]}]}}`,
      'utf8',
    );
    const r = await srv.push(broken);
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(false);
    expect(r.body.warning).toMatch(
      /what was read before the error was ingested: 1 sample\(s\) from 1 whole metric block\(s\) and the block cut short by the error, up to the break;/,
    );
    expect(r.body.ingested).toEqual({ steps: 1 });
    expect(await srv.rows('steps')).toEqual([{ date: '2025-01-01', count: 1234 }]);
    const [name] = fs.readdirSync(srv.inst.hae.dirs.quarantine);
    expect(fs.readFileSync(path.join(srv.inst.hae.dirs.quarantine, name)).equals(broken)).toBe(true);
    expect(fs.readdirSync(srv.inst.hae.dirs.incoming)).toEqual([]);
  });

  it('an empty body and a body that is not an HAE object are answered 200 with a warning', async () => {
    srv = await startIngestServer();
    const empty = await srv.api('/api/health-auto-export', { method: 'POST', token: srv.haeToken });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ ok: false, warning: expect.stringMatching(/empty/) });
    const array = await srv.push('[1, 2, 3]');
    expect(array.status).toBe(200);
    expect(array.body.ok).toBe(true);
    expect(array.body.warnings[0]).toMatch(/not an HAE object/);
    // a body sent as text/plain is read the same way (the phone sets its own content type)
    const plain = await srv.api('/api/health-auto-export', {
      method: 'POST',
      body: stepsBody([{ date: '2025-01-01 00:00:00 +0000', qty: 5 }]),
      headers: { 'content-type': 'text/plain' },
      token: srv.haeToken,
    });
    expect(plain.status).toBe(200);
    expect(plain.body.ok).toBe(true);
  });
});

describe('errors after auth', () => {
  it('are logged and answered 200 with a warning, so the phone does not retry in a loop', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const store = srv.inst.hae.samples;
    const insert = store.insert.bind(store);
    store.insert = () => {
      throw new Error('database or disk is full');
    };
    try {
      const r = await srv.push(stepsBody([{ date: '2025-01-01 00:00:00 +0000', qty: 5 }]));
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        ok: false,
        ingested: {},
        availableUnsubscribed: [],
        warning: expect.stringMatching(/^ingestion failed: database or disk is full/),
      });
    } finally {
      store.insert = insert;
    }
    const ok = await srv.push(stepsBody([{ date: '2025-01-01 00:00:00 +0000', qty: 5 }]));
    expect(ok.body.ingested).toEqual({ steps: 1 });
  });
});

describe('token lifecycle', () => {
  it('generate (201, then 409), read, regenerate (old token invalid at once), delete (501)', async () => {
    const s = await startServer({ watch: false });
    srv = s as IngestServer;
    const none = await s.api('/api/health-auto-export/token');
    expect(none.body).toEqual({ token: null, lastRegeneratedAt: null });
    const made = await s.api('/api/health-auto-export/token', { method: 'POST' });
    expect(made.status).toBe(201);
    expect(made.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(made.body.lastRegeneratedAt)).not.toBeNaN();
    expect((await s.api('/api/health-auto-export/token', { method: 'POST' })).status).toBe(409);
    expect((await s.api('/api/health-auto-export/token')).body).toEqual(made.body);

    const cfgFile = path.join(s.home, 'config.json');
    expect(JSON.parse(fs.readFileSync(cfgFile, 'utf8')).hae.token).toBe(made.body.token);
    expect(fs.statSync(cfgFile).mode & 0o777).toBe(0o600);

    const body = stepsBody([{ date: '2025-01-01 00:00:00 +0000', qty: 5 }]);
    const post = (token: string) =>
      s.api('/api/health-auto-export', {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
        token,
      });
    expect((await post(made.body.token)).status).toBe(200);
    const next = await s.api('/api/health-auto-export/token/regenerate', { method: 'POST' });
    expect(next.status).toBe(200);
    expect(next.body.token).not.toBe(made.body.token);
    expect((await post(made.body.token)).status).toBe(401);
    expect((await post(next.body.token)).status).toBe(200);

    // other settings in config.json are kept across token writes
    const cfg = JSON.parse(fs.readFileSync(cfgFile, 'utf8'));
    fs.writeFileSync(cfgFile, JSON.stringify({ ...cfg, auth: { invites: ['keep-me'] } }));
    expect((await s.api('/api/health-auto-export/token', { method: 'DELETE' })).body).toEqual({
      ok: true,
      tokenSet: false,
    });
    expect((await post(next.body.token)).status).toBe(501);
    expect(JSON.parse(fs.readFileSync(cfgFile, 'utf8')).auth).toEqual({ invites: ['keep-me'] });
    expect((await s.api('/api/health-auto-export/status')).body.tokenSet).toBe(false);
  });

  it('the legacy HEALTH_AUTO_EXPORT_TOKEN is migrated once at boot, then ignored', async () => {
    const legacyEnv = { HEALTH_AUTO_EXPORT_TOKEN: 'legacy-token-123' };
    const first = await startServer({ watch: false, env: legacyEnv });
    const home = first.home;
    try {
      expect((await first.api('/api/health-auto-export/token')).body.token).toBe('legacy-token-123');
      expect((await first.api('/api/health-auto-export/token', { method: 'DELETE' })).status).toBe(200);
    } finally {
      await first.close({ keepHome: true });
    }
    // the variable is still set at the second start: it must not bring the deleted token back
    const second = await startServer({ watch: false, home, env: legacyEnv });
    const closeSecond = second.close.bind(second);
    srv = Object.assign(second, {
      close: async () => {
        await closeSecond();
        fs.rmSync(home, { recursive: true, force: true });
      },
    }) as IngestServer;
    expect((await second.api('/api/health-auto-export/token')).body.token).toBeNull();
  });
});

describe('status', () => {
  it('{tokenSet, endpointUrl from HEALTH_ORIGIN (never the Host header), lastPush}', async () => {
    srv = await startIngestServer({
      cards: [['steps', 'step_count']],
      env: {
        AGENT_API_TOKEN: 'agent-secret',
        HEALTH_ORIGIN: 'https://klebb.example.org',
        KLEBB_TRUST_LOOPBACK: '1',
      },
    });
    const before = await rawGet(srv.url, '/api/health-auto-export/status', {
      authorization: 'Bearer agent-secret',
      host: 'evil.example',
      'x-forwarded-proto': 'http',
    });
    expect(before.body).toEqual({
      tokenSet: true,
      endpointUrl: 'https://klebb.example.org/api/health-auto-export',
      lastPush: null,
    });
    const body = JSON.stringify({
      metrics: [
        { name: 'step_count', units: 'count', data: [{ date: '2025-01-01 00:00:00 +0000', qty: 5 }] },
        { name: 'my_custom_metric', units: 'x', data: [{ date: '2025-01-01 10:00:00 +0000', qty: 1 }] },
      ],
    });
    expect((await srv.push(body)).status).toBe(200);
    const after = await srv.api('/api/health-auto-export/status');
    expect(after.body.endpointUrl).toBe('https://klebb.example.org/api/health-auto-export');
    expect(after.body.lastPush).toMatchObject({
      origin: 'hae',
      payloadBytes: Buffer.byteLength(body),
      samples: 2,
      newSamples: 2,
      subscribers: [{ id: 'steps', metric: 'step_count', rowsWritten: 1 }],
      availableUnsubscribed: ['my_custom_metric'],
      warnings: [],
    });
  });
});

describe('a push that reads nothing after a good one', () => {
  it('keeps the good one as lastPush and names the failed one apart as lastFailedAttempt', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const good = stepsBody([{ date: '2025-01-01 00:00:00 +0000', qty: 5 }]);
    expect((await srv.push(good)).status).toBe(200);
    const none = await srv.push('null');
    expect(none.status).toBeLessThan(500);
    const status = (await srv.api('/api/health-auto-export/status')).body;
    expect(status.lastPush).toMatchObject({
      payloadBytes: Buffer.byteLength(good),
      samples: 1,
      subscribers: [{ id: 'steps', rowsWritten: 1 }],
    });
    expect(status.lastFailedAttempt).toMatchObject({ payloadBytes: 4 });
    expect(status.lastFailedAttempt.warnings.length).toBeGreaterThan(0);
    // the next good push clears the failed attempt
    expect((await srv.push(stepsBody([{ date: '2025-01-02 00:00:00 +0000', qty: 7 }]))).status).toBe(200);
    const after = (await srv.api('/api/health-auto-export/status')).body;
    expect(after.lastFailedAttempt).toBeUndefined();
  });
});

describe('discoveries', () => {
  it('lists unsubscribed metrics by category, unknown ones apart; dismiss, unhide, 404s; subscribing graduates and fills', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const body = JSON.stringify({
      data: {
        metrics: [
          { name: 'step_count', units: 'count', data: [{ date: '2025-01-01 00:00:00 +0000', qty: 5 }] },
          {
            name: 'heart_rate',
            units: 'count/min',
            data: [{ date: '2025-01-01 00:00:00 +0000', Min: 50, Avg: 60, Max: 90 }],
          },
          { name: 'body_mass', units: 'lb', data: [{ date: '2025-01-01 07:00:00 +0000', qty: 176 }] },
          { name: 'Mystery Metric', units: 'zz', data: [{ date: '2025-01-01 07:00:00 +0000', qty: 3 }] },
          { name: 'swimming_distance', units: 'm', data: [] },
        ],
      },
    });
    const r = await srv.push(body);
    expect(r.body.availableUnsubscribed).toEqual(['heart_rate', 'mystery metric', 'weight_body_mass']);
    const d = (await srv.api('/api/health-auto-export/discoveries')).body;
    expect(Object.keys(d.undismissed.supported).sort()).toEqual(['body', 'vitals']);
    expect(d.undismissed.supported.vitals).toEqual([
      { metric: 'heart_rate', label: 'Heart rate', firstSeenAt: expect.any(String) },
    ]);
    expect(d.undismissed.supported.body.map((x: { metric: string }) => x.metric)).toEqual([
      'weight_body_mass',
    ]);
    expect(d.undismissed.unsupported.map((x: { metric: string }) => x.metric)).toEqual(['mystery metric']);
    expect(d.dismissed).toEqual([]);

    const dismiss = await srv.api('/api/health-auto-export/discoveries/heart_rate/dismiss', {
      method: 'POST',
    });
    expect(dismiss.body).toEqual({ ok: true, metric: 'heart_rate', dismissed: true });
    const d2 = (await srv.api('/api/health-auto-export/discoveries')).body;
    expect(d2.undismissed.supported.vitals).toBeUndefined();
    expect(d2.dismissed).toEqual([
      {
        metric: 'heart_rate',
        label: 'Heart rate',
        firstSeenAt: expect.any(String),
        dismissedAt: expect.any(String),
        supported: true,
      },
    ]);
    expect(
      (await srv.api('/api/health-auto-export/discoveries/heart_rate/unhide', { method: 'POST' })).status,
    ).toBe(200);
    expect(
      (await srv.api('/api/health-auto-export/discoveries')).body.undismissed.supported.vitals,
    ).toHaveLength(1);
    // an alias names the same metric; unknown names and actions are 404
    expect(
      (await srv.api('/api/health-auto-export/discoveries/body_mass/dismiss', { method: 'POST' })).status,
    ).toBe(200);
    expect(
      (await srv.api('/api/health-auto-export/discoveries/Mystery%20Metric/dismiss', { method: 'POST' }))
        .status,
    ).toBe(200);
    expect(
      (await srv.api('/api/health-auto-export/discoveries/vo2_max/dismiss', { method: 'POST' })).status,
    ).toBe(404);
    expect(
      (await srv.api('/api/health-auto-export/discoveries/heart_rate/hide', { method: 'POST' })).status,
    ).toBe(404);

    // creating a card for heart_rate graduates it out of the discoveries and fills it from the stored samples
    const created = await srv.createCard(haeCard('heart', 'heart_rate'));
    expect(created.status).toBe(201);
    expect(await srv.rows('heart')).toEqual([{ date: '2025-01-01', min: 50, avg: 60, max: 90 }]);
    const d3 = (await srv.api('/api/health-auto-export/discoveries')).body;
    expect(d3.undismissed.supported.vitals).toBeUndefined();
    expect(JSON.stringify(d3)).not.toContain('heart_rate');
  });
});

/** GET with arbitrary headers (fetch does not let a test set Host). */
async function rawGet(url: string, pathname: string, headers: Record<string, string>) {
  const http = await import('node:http');
  const u = new URL(url);
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, path: pathname, method: 'GET', headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}
