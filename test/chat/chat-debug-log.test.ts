// HEALTH_DEBUG=1 step logs (docs/CHAT-AGENT.md "Turn budgets" and "Prompt caching": `[chat:<id>]
// iter=N gw=<ms>ms` per step with `cached=` / `cwrite=` token counts, `usage=none` when the
// gateway reported no usage, `iter_timeout` when a step ran past its budget;
// usage arrives on a trailing chunk with empty choices when streaming).
//
// The server runs in-process; its pino logger's destination is swapped for an in-memory sink and
// its level raised to info (what KLEBB_LOG_LEVEL=info gives), so the test reads exactly the JSON
// lines the server would print, without the startup line leaking into the test output.
import { afterEach, describe, expect, it } from 'vitest';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { postSse } from '../helpers/sse-client.js';

const opened: Array<{ gw: ScriptedGateway; s: TestServer }> = [];
afterEach(async () => {
  for (const { gw, s } of opened.splice(0)) {
    await s.close();
    await gw.close();
  }
});

/** Starts gateway + server and captures every log line the server writes from then on. */
async function boot(
  env: Record<string, string> = {},
): Promise<{ gw: ScriptedGateway; s: TestServer; lines: () => string[] }> {
  const gw = await startScriptedGateway();
  const s = await startServer({
    env: {
      CHAT_ENDPOINT_URL: gw.url,
      CHAT_API_KEY: 'sk-test',
      CHAT_MODEL: 'test-model',
      ...env,
    },
  });
  opened.push({ gw, s });
  const raw: string[] = [];
  const log = s.app.log as unknown as Record<symbol, unknown>;
  const streamSym = Object.getOwnPropertySymbols(log).find((sym) => sym.description === 'pino.stream');
  expect(streamSym, 'the pino logger exposes its destination').toBeDefined();
  log[streamSym as symbol] = { write: (chunk: string) => raw.push(chunk) };
  s.app.log.level = 'info';
  const lines = () =>
    raw
      .join('')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => {
        try {
          return String(JSON.parse(l).msg ?? '');
        } catch {
          return l;
        }
      });
  return { gw, s, lines };
}

const chatLines = (lines: string[]) => lines.filter((l) => l.startsWith('[chat:'));
const ask = { messages: [{ role: 'user', content: 'how is my weight?' }] };

const USAGE = {
  prompt_tokens: 1200,
  completion_tokens: 30,
  total_tokens: 1230,
  prompt_tokens_details: { cached_tokens: 1000, cache_write_tokens: 150 },
};

describe('HEALTH_DEBUG=1', () => {
  it('buffered: a reply with usage logs [chat:<id>] iter=1 gw=<n>ms with cached= and cwrite=', async () => {
    const { gw, s, lines } = await boot({ HEALTH_DEBUG: '1' });
    gw.script({ kind: 'reply', text: 'Steady.', usage: USAGE });
    expect((await s.api('/api/chat', { json: ask })).status).toBe(200);
    const got = chatLines(lines());
    expect(got).toHaveLength(1);
    expect(got[0]).toMatch(/^\[chat:[^\]\s]+\] iter=1 gw=\d+ms /);
    expect(got[0]).toContain('cached=1000');
    expect(got[0]).toContain('cwrite=150');
  });

  it('streamed: usage from the trailing empty-choices chunk is logged (and was asked for with include_usage)', async () => {
    const { gw, s, lines } = await boot({ HEALTH_DEBUG: '1' });
    gw.script({ kind: 'reply', text: 'Steady.', usage: USAGE });
    const r = await postSse(`${s.url}/api/chat`, { stream: true, ...ask });
    expect(r.events.at(-2)?.data).toEqual({ reply: 'Steady.' });
    expect(gw.requests[0].body.stream_options).toEqual({ include_usage: true });
    const got = chatLines(lines());
    expect(got).toHaveLength(1);
    expect(got[0]).toMatch(/^\[chat:[^\]\s]+\] iter=1 gw=\d+ms .*cached=1000.*cwrite=150/);
  });

  it('DeepSeek-style usage (prompt_cache_hit_tokens) logs cached= from the hit count', async () => {
    const { gw, s, lines } = await boot({ HEALTH_DEBUG: '1' });
    gw.script({
      kind: 'reply',
      text: 'OK.',
      usage: {
        prompt_tokens: 100,
        completion_tokens: 5,
        total_tokens: 105,
        prompt_cache_hit_tokens: 80,
        prompt_cache_miss_tokens: 20,
      },
    });
    await s.api('/api/chat', { json: ask });
    const got = chatLines(lines());
    expect(got[0]).toContain('cached=80');
    expect(got[0]).toContain('cwrite=0');
  });

  it('a reply without usage logs usage=none (not zero counts)', async () => {
    const { gw, s, lines } = await boot({ HEALTH_DEBUG: '1' });
    gw.script({ kind: 'reply', text: 'Steady.' });
    await s.api('/api/chat', { json: ask });
    const got = chatLines(lines());
    expect(got).toHaveLength(1);
    expect(got[0]).toMatch(/^\[chat:[^\]\s]+\] iter=1 gw=\d+ms usage=none$/);
    expect(got[0]).not.toContain('cached=');
  });

  it('one line per round-trip, numbered, all with the same turn id', async () => {
    const { gw, s, lines } = await boot({ HEALTH_DEBUG: '1' });
    gw.script(
      { kind: 'reply', toolCalls: [{ id: 't1', name: 'list_manifests', arguments: {} }], usage: USAGE },
      { kind: 'reply', text: 'None yet.' },
    );
    await s.api('/api/chat', { json: ask });
    const got = chatLines(lines());
    expect(got).toHaveLength(2);
    const ids = got.map((l) => /^\[chat:([^\]]+)\]/.exec(l)?.[1]);
    expect(ids[0]).toBeTruthy();
    expect(ids[1]).toBe(ids[0]);
    expect(got[0]).toMatch(/ iter=1 gw=\d+ms .*cached=1000/);
    expect(got[1]).toMatch(/ iter=2 gw=\d+ms usage=none$/);
  });

  it('two turns get different ids', async () => {
    const { gw, s, lines } = await boot({ HEALTH_DEBUG: '1' });
    gw.script({ kind: 'reply', text: 'a' }, { kind: 'reply', text: 'b' });
    await s.api('/api/chat', { json: ask });
    await s.api('/api/chat', { json: ask });
    const ids = chatLines(lines()).map((l) => /^\[chat:([^\]]+)\]/.exec(l)?.[1]);
    expect(ids).toHaveLength(2);
    expect(ids[0]).not.toBe(ids[1]);
  });

  for (const mode of ['buffered', 'streamed'] as const) {
    it(`${mode}: a step timeout logs iter=1 gw=<n>ms iter_timeout`, async () => {
      const { gw, s, lines } = await boot({
        HEALTH_DEBUG: '1',
        CHAT_ITER_TIMEOUT_MS: '300',
        CHAT_TURN_DEADLINE_MS: '1500',
      });
      if (mode === 'buffered') {
        gw.script({ kind: 'reply', text: 'late', headersDelayMs: 900 });
        const r = await s.api('/api/chat', { json: ask });
        expect(r.body.timedOut).toBe(true);
      } else {
        gw.script({ kind: 'stall' });
        const r = await postSse(`${s.url}/api/chat`, { stream: true, ...ask });
        expect(r.events.at(-2)?.data.timedOut).toBe(true);
      }
      const got = chatLines(lines());
      expect(got).toHaveLength(1);
      expect(got[0]).toMatch(/^\[chat:[^\]\s]+\] iter=1 gw=\d+ms iter_timeout$/);
    });
  }
});

describe('without HEALTH_DEBUG', () => {
  it('no [chat:...] step lines are logged, even at info level', async () => {
    const { gw, s, lines } = await boot();
    gw.script({ kind: 'reply', text: 'Steady.', usage: USAGE });
    expect((await s.api('/api/chat', { json: ask })).status).toBe(200);
    const all = lines();
    expect(all.length).toBeGreaterThan(0); // the sink does receive the request logs
    expect(chatLines(all)).toEqual([]);
  });
});
