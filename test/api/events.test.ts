/**
 * `GET /api/events`, the dashboard's live feed (docs/API.md "Live events"), against the
 * real server:
 * - a stream starts with `ready`, then one `card` event per change: a row written with the agent
 *   token (`data-changed` carrying the new data version, the number in the ETag), a card created
 *   and deleted over the API, a file dropped into data/ and removed by hand; no health data in them;
 * - several streams all receive the same events;
 * - the stream needs auth like every other route (no token when loopback is not trusted, a wrong
 *   bearer, a cross-site page on loopback: 401 JSON, never a stream);
 * - it ends when the server closes, also through `app.close()` alone, and the close is not held up.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createParser } from 'eventsource-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const TOKEN = 'events-test-token-0123456789abcdef';

interface Received {
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: event payloads are asserted field by field
  data: any;
}

/** An open event stream: every event so far, waiting for one, and its end. */
interface OpenStream {
  status: number;
  contentType: string;
  events: Received[];
  /** Resolves with the first event (already received or coming) that `match` accepts. */
  next(match: (e: Received) => boolean, what: string): Promise<Received>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  abort(): void;
}

async function openStream(url: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  const ctl = new AbortController();
  const res = await fetch(`${url}/api/events`, { headers, signal: ctl.signal });
  const events: Received[] = [];
  const waiters: { match: (e: Received) => boolean; resolve: (e: Received) => void }[] = [];
  const parser = createParser({
    onEvent: (e) => {
      const ev = { event: e.event ?? 'message', data: JSON.parse(e.data) };
      events.push(ev);
      for (const w of waiters.splice(0)) {
        if (w.match(ev)) w.resolve(ev);
        else waiters.push(w);
      }
    },
  });
  const ended = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
      }
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
    }
  })();
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    events,
    next(match, what) {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no ${what} event within 3 s; got ${JSON.stringify(events)}`)),
          3000,
        );
        waiters.push({
          match,
          resolve: (e) => {
            clearTimeout(timer);
            resolve(e);
          },
        });
      });
    },
    ended,
    abort: () => ctl.abort(),
  };
}

const card = (id: string, label = id) => ({
  $schema: 'klebb.datafile.v1',
  meta: {
    id,
    label,
    emoji: '⚖️',
    view: { enabled: true, component: 'generic-card' },
    writeable: { fromWebapp: true },
  },
});

let s: TestServer | undefined;
const streams: OpenStream[] = [];

afterEach(async () => {
  for (const st of streams.splice(0)) st.abort();
  await s?.close();
  s = undefined;
});

describe('GET /api/events', { timeout: 20_000 }, () => {
  it('starts with ready, then tells every change of a card, with no health data', async () => {
    s = await startServer({ env: { AGENT_API_TOKEN: TOKEN } });
    const st = await openStream(s.url, { authorization: `Bearer ${TOKEN}` });
    streams.push(st);
    expect(st.status).toBe(200);
    expect(st.contentType).toMatch(/^text\/event-stream/);
    const ready = await st.next((e) => e.event === 'ready', 'ready');
    expect(Number.isNaN(Date.parse(ready.data.at))).toBe(false);
    expect(st.events[0].event).toBe('ready');

    // a card created over the API
    const created = await s.api('/api/manifests', { json: card('weight', 'Weight'), token: TOKEN });
    expect(created.status).toBe(201);
    await st.next(
      (e) => e.event === 'card' && e.data.type === 'card-changed' && e.data.id === 'weight',
      'card-changed',
    );

    // a row written by an agent: data-changed with the version of the new ETag
    const row = await s.api('/api/manifests/weight/rows', {
      json: { value: { date: '2026-04-20', kg: 85.5 } },
      token: TOKEN,
    });
    expect(row.status).toBe(201);
    const version = Number(/^"v(\d+)"$/.exec(row.headers.get('etag') ?? '')?.[1]);
    expect(version).toBeGreaterThan(0);
    const changed = await st.next(
      (e) => e.event === 'card' && e.data.type === 'data-changed' && e.data.version === version,
      'data-changed',
    );
    expect(changed.data).toEqual({ type: 'data-changed', id: 'weight', version });
    // the events name cards, never carry what was written
    expect(JSON.stringify(st.events)).not.toContain('85.5');

    // a file dropped into data/ by hand, then removed by hand
    fs.writeFileSync(path.join(s.dataDir, 'mood.json'), `${JSON.stringify(card('mood', 'Mood'), null, 2)}\n`);
    await st.next(
      (e) => e.event === 'card' && e.data.type === 'card-changed' && e.data.id === 'mood',
      'mood appears',
    );
    fs.rmSync(path.join(s.dataDir, 'mood.json'));
    await st.next(
      (e) => e.event === 'card' && e.data.type === 'card-removed' && e.data.id === 'mood',
      'mood removed',
    );

    // a broken file dropped in by hand, then fixed, then a broken one removed: the list's problems change
    const broken = path.join(s.dataDir, 'sleep.json');
    fs.writeFileSync(broken, '{"meta": {"id": "sleep", "label": ');
    const failed = await st.next((e) => e.event === 'card' && e.data.type === 'file-error', 'file-error');
    expect(failed.data).toEqual({ type: 'file-error', id: '', file: 'sleep.json' });
    expect(
      (await s.api('/api/views/view', { token: TOKEN })).body.errors.map((e: { file: string }) => e.file),
    ).toContain('sleep.json');
    fs.writeFileSync(
      path.join(s.dataDir, 'nolabel.json'),
      // a label left out is read as the id in words; a label that is not text is a mistake
      JSON.stringify({ $schema: 'klebb.datafile.v1', meta: { id: 'nolabel', label: 42 } }),
    );
    const named = await st.next(
      (e) => e.event === 'card' && e.data.type === 'file-error' && e.data.file === 'nolabel.json',
      'file-error with id',
    );
    expect(named.data.id).toBe('nolabel');
    const seen = st.events.length;
    fs.rmSync(broken);
    await st.next(
      (e) =>
        st.events.indexOf(e) >= seen &&
        e.event === 'card' &&
        e.data.type === 'file-error' &&
        e.data.file === 'sleep.json',
      'broken file gone',
    );
    expect(
      (await s.api('/api/views/view', { token: TOKEN })).body.errors.map((e: { file: string }) => e.file),
    ).not.toContain('sleep.json');
    fs.rmSync(path.join(s.dataDir, 'nolabel.json'));

    // a card deleted over the API
    expect((await s.api('/api/manifests/weight', { method: 'DELETE', token: TOKEN })).status).toBe(200);
    await st.next(
      (e) => e.event === 'card' && e.data.type === 'card-removed' && e.data.id === 'weight',
      'card-removed',
    );

    for (const e of st.events.filter((x) => x.event === 'card')) {
      expect(Object.keys(e.data).sort()).toEqual(
        e.data.type === 'data-changed'
          ? ['id', 'type', 'version']
          : e.data.type === 'file-error'
            ? ['file', 'id', 'type']
            : ['id', 'type'],
      );
    }
  });

  it('sends the same events to every open page', async () => {
    s = await startServer();
    const a = await openStream(s.url);
    const b = await openStream(s.url);
    streams.push(a, b);
    await Promise.all([
      a.next((e) => e.event === 'ready', 'ready'),
      b.next((e) => e.event === 'ready', 'ready'),
    ]);
    expect((await s.api('/api/manifests', { json: card('steps') })).status).toBe(201);
    const match = (e: Received) =>
      e.event === 'card' && e.data.id === 'steps' && e.data.type === 'card-changed';
    await Promise.all([a.next(match, 'steps in a'), b.next(match, 'steps in b')]);
  });

  it('needs auth like every other route', async () => {
    s = await startServer({ env: { AGENT_API_TOKEN: TOKEN, KLEBB_TRUST_LOOPBACK: '0' } });
    for (const headers of [{}, { authorization: 'Bearer not-the-token' }] as Record<string, string>[]) {
      const r = await s.api('/api/events', { headers });
      expect(r.status).toBe(401);
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      expect(r.body.code).toBeTypeOf('string');
    }
    const ok = await openStream(s.url, { authorization: `Bearer ${TOKEN}` });
    streams.push(ok);
    expect(ok.status).toBe(200);
    await ok.next((e) => e.event === 'ready', 'ready');
  });

  it('refuses a web page of another site even on this machine', async () => {
    s = await startServer();
    const r = await s.api('/api/events', {
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(r.status).toBe(401);
    expect(r.text).not.toContain('event:');
  });

  it('ends every stream when the server closes', async () => {
    s = await startServer();
    const a = await openStream(s.url);
    const b = await openStream(s.url);
    streams.push(a, b);
    await a.next((e) => e.event === 'ready', 'ready');
    await b.next((e) => e.event === 'ready', 'ready');
    const server = s;
    s = undefined;
    await server.close();
    // both ended by the server, not by us (afterEach aborts only later)
    await a.ended;
    await b.ended;
  });

  it('ends its streams on app.close() alone, without holding the close up', async () => {
    s = await startServer();
    // other parts of the server listen too; the stream's own listener must go
    const others = s.inst.events.listenerCount('card');
    const a = await openStream(s.url);
    streams.push(a);
    await a.next((e) => e.event === 'ready', 'ready');
    expect(s.inst.events.listenerCount('card')).toBe(others + 1);
    await s.app.close();
    await a.ended;
    expect(s.inst.events.listenerCount('card')).toBe(others);
  });
});
