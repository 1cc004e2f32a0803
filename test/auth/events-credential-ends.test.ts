/**
 * `GET /api/events` is only as good as the credential that opened it: a tab whose session was
 * signed out (in another tab), or a script whose token was revoked, no longer hears which cards
 * change. Its stream ends at the next event (and within a heartbeat when nothing happens); a
 * stream of a credential that still holds goes on.
 */
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { browser, codeOf, register, signIn } from './flows.js';
import { SoftAuthenticator } from './soft-authenticator.js';

let s: TestServer;

interface Stream {
  cards: string[];
  ended: Promise<void>;
  done: boolean;
  abort(): void;
}

async function open(headers: Record<string, string>): Promise<Stream> {
  const ctl = new AbortController();
  const res = await fetch(`${s.url}/api/events`, { headers, signal: ctl.signal });
  expect(res.status).toBe(200);
  const st: Stream = { cards: [], ended: Promise.resolve(), done: false, abort: () => ctl.abort() };
  let ready!: () => void;
  const isReady = new Promise<void>((r) => {
    ready = r;
  });
  const parser = createParser({
    onEvent: (e) => {
      if (e.event === 'ready') ready();
      if (e.event === 'card') st.cards.push(JSON.parse(e.data).id);
    },
  });
  st.ended = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
      }
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
    }
    st.done = true;
  })();
  await isReady;
  return st;
}

const card = (id: string) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: id, writeable: { fromWebapp: true } },
  data: [],
});

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: 'seed-agent-token' } });
});
afterAll(async () => {
  await s?.close();
});

describe('a live event stream whose credential ends', { timeout: 20_000 }, () => {
  it('ends for a signed-out session and a revoked token; the others go on', async () => {
    const authn = new SoftAuthenticator(s.url);
    const reg = await register(s, authn, { code: codeOf(s.inst.auth.setupLink() as string) });
    const tabA = reg.cookie as string;
    const tabB = (await signIn(s, authn)).cookie as string;
    expect(tabB).toBeTruthy();
    const made = await s.api('/api/tokens', {
      json: { name: 'dashboard', access: 'read' },
      headers: browser(s.url, tabB),
    });
    expect(made.status, made.text).toBe(201);

    const a = await open(browser(s.url, tabA));
    const b = await open(browser(s.url, tabB));
    const t = await open({ authorization: `Bearer ${made.body.secret}` });
    const agent = await open({ authorization: 'Bearer seed-agent-token' });

    expect((await s.api('/auth/logout', { method: 'POST', headers: browser(s.url, tabA) })).status).toBe(200);
    const revoked = await s.api(`/api/tokens/${made.body.token.id}`, {
      method: 'DELETE',
      headers: browser(s.url, tabB),
    });
    expect(revoked.status, revoked.text).toBe(200);

    expect(
      (await s.api('/api/manifests', { json: card('hiv-meds'), token: 'seed-agent-token' })).status,
    ).toBe(201);
    await Promise.all([a.ended, t.ended]);
    expect(a.cards).toEqual([]);
    expect(t.cards).toEqual([]);
    // the live ones heard it and are still open
    for (let i = 0; i < 50 && (b.cards.length === 0 || agent.cards.length === 0); i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(b.cards).toContain('hiv-meds');
    expect(agent.cards).toContain('hiv-meds');
    expect([b.done, agent.done]).toEqual([false, false]);
    b.abort();
    agent.abort();
  });
});
