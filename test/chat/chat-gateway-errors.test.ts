// Each gateway failure class through POST /api/chat, buffered and streamed (docs/CHAT-AGENT.md
// "Gateway error classes": exhausted allowance, dead gateway, timeout and
// empty reply each get their own status and copy, a bare 429 is transient, not "budget").
// Buffered: the classified HTTP status with `{error}`; streamed: an `error {error, status}` event
// followed by `done` as the last event.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ScriptedGateway, type ScriptStep, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { postSse, type ReceivedEvent } from '../helpers/sse-client.js';

const opened: Array<{ gw?: ScriptedGateway; s: TestServer }> = [];
const ENV = {
  CHAT_API_KEY: 'sk-test',
  CHAT_MODEL: 'test-model',
  CHAT_ITER_TIMEOUT_MS: '1000',
  CHAT_TURN_DEADLINE_MS: '1500',
};

async function boot(): Promise<{ gw: ScriptedGateway; s: TestServer }> {
  const gw = await startScriptedGateway();
  const s = await startServer({ env: { ...ENV, CHAT_ENDPOINT_URL: gw.url } });
  opened.push({ gw, s });
  return { gw, s };
}
afterEach(async () => {
  for (const { gw, s } of opened.splice(0)) {
    await s.close();
    await gw?.close();
  }
});

/** A port nothing listens on (bound, read, closed). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const ask = { messages: [{ role: 'user', content: 'how is my weight?' }] };

type Outcome = { status: number; error?: string; reply?: string; payload?: Record<string, unknown> };

/** Buffered: the HTTP status and body. */
async function buffered(s: TestServer): Promise<Outcome & { text: string }> {
  const r = await s.api('/api/chat', { json: ask });
  return { status: r.status, error: r.body?.error, reply: r.body?.reply, payload: r.body, text: r.text };
}

/** Streamed: the status carried by the final reply/error event; checks the event protocol on the way. */
async function streamed(s: TestServer): Promise<Outcome & { events: ReceivedEvent[] }> {
  const r = await postSse(`${s.url}/api/chat`, { stream: true, ...ask });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events = r.events;
  expect(events.at(-1)?.event).toBe('done');
  expect(events.filter((e) => e.event === 'done')).toHaveLength(1);
  const last = events.at(-2);
  expect(['reply', 'error']).toContain(last?.event);
  if (last?.event === 'error') {
    expect(Object.keys(last.data).sort()).toEqual(['error', 'status']);
    expect(events.some((e) => e.event === 'reply')).toBe(false);
    return { status: last.data.status, error: last.data.error, events };
  }
  return { status: 200, reply: last?.data.reply, payload: last?.data, events };
}

const BUDGET_BODIES = {
  insufficient_quota: {
    error: {
      message: 'You exceeded your current quota, please check your plan and billing details.',
      type: 'insufficient_quota',
      code: 'insufficient_quota',
    },
  },
  'budget has been exceeded': {
    error: {
      message: 'Budget has been exceeded! Current cost: 10.02, Max budget: 10.0',
      type: 'budget_exceeded',
      code: '400',
    },
  },
};

const HTML_PAGE = (status: number) =>
  `<!DOCTYPE html>\n<html><head><title>${status} Service Temporarily Unavailable</title></head>\n<body><center><h1>${status} Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n`;

describe.each(['buffered', 'streamed'] as const)('%s', (mode) => {
  const run = (s: TestServer) => (mode === 'buffered' ? buffered(s) : streamed(s));

  for (const [label, body] of Object.entries(BUDGET_BODIES)) {
    it(`budget 429 ("${label}") → 429 with "allowance" copy`, async () => {
      const { gw, s } = await boot();
      gw.script({ kind: 'error', status: 429, body });
      const o = await run(s);
      expect(o.status).toBe(429);
      expect(o.error).toMatch(/allowance/i);
      // not retried: a used-up allowance does not come back in a second
      expect(gw.requests).toHaveLength(1);
    });
  }

  it('bare 429 whose Retry-After fits the budget is retried and the turn answers', async () => {
    const { gw, s } = await boot();
    gw.script(
      {
        kind: 'error',
        status: 429,
        headers: { 'Retry-After': '0.2' },
        body: { error: { message: 'Rate limit reached for requests', type: 'requests' } },
      },
      { kind: 'reply', text: 'Your weight is steady.' },
    );
    const o = await run(s);
    expect(o.status).toBe(200);
    expect(o.reply).toBe('Your weight is steady.');
    expect(gw.requests).toHaveLength(2);
  });

  it('bare 429 whose Retry-After does not fit the budget → 502 transient copy, not "allowance"', async () => {
    const { gw, s } = await boot();
    gw.script({
      kind: 'error',
      status: 429,
      headers: { 'Retry-After': '30' },
      body: { error: { message: 'Rate limit reached for requests', type: 'requests' } },
    });
    const o = await run(s);
    expect(o.status).toBe(502);
    expect(o.error).not.toMatch(/allowance/i);
    expect(o.error).toMatch(/try again/i);
    // failed fast: no waiting 30 s for a retry
    expect(gw.requests).toHaveLength(1);
  });

  for (const status of [502, 503]) {
    it(`${status} with an HTML page → 502 "unavailable" copy, no HTML in our answer`, async () => {
      const { gw, s } = await boot();
      const step: ScriptStep = {
        kind: 'error',
        status,
        headers: { 'Content-Type': 'text/html; charset=utf-8' },
        body: HTML_PAGE(status),
      };
      gw.script(step, step, step);
      const o = await run(s);
      expect(o.status).toBe(502);
      expect(o.error).toMatch(/unavailable/i);
      expect(o.error).not.toMatch(/<|>|html|nginx/i);
      if ('text' in o) expect(o.text).not.toMatch(/<[a-z!/]/i);
      if ('events' in o) expect(JSON.stringify(o.events)).not.toMatch(/<[a-z!/]/i);
      expect(gw.requests.length).toBeGreaterThanOrEqual(1);
      expect(gw.requests.length).toBeLessThanOrEqual(3);
    });
  }

  it('connection refused (CHAT_ENDPOINT_URL at a closed port) → 502', async () => {
    const port = await closedPort();
    const s = await startServer({
      env: { ...ENV, CHAT_ENDPOINT_URL: `http://127.0.0.1:${port}/v1/chat/completions` },
    });
    opened.push({ s });
    const o = await run(s);
    expect(o.status).toBe(502);
    expect(o.error).toMatch(/unavailable|try again/i);
  });

  it('a 200 JSON body cut off mid-object (its chunked body ended cleanly) → 502 "cut off", asked again', async () => {
    const { gw, s } = await boot();
    const cut: ScriptStep = {
      kind: 'bytes',
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      chunks: [
        '{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Your wei',
      ],
    };
    gw.script(cut, cut, cut);
    const o = await run(s);
    expect(o.status).toBe(502);
    expect(o.error).toBe("The model's reply was cut off before it was complete. Please try again.");
    expect(gw.requests.length).toBeGreaterThan(1);
  });

  it('a 200 JSON body that is not a chat completion ({"object":"list"}) → 500', async () => {
    const { gw, s } = await boot();
    gw.script({
      kind: 'bytes',
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      chunks: ['{"object":"list","data":[]}'],
    });
    const o = await run(s);
    expect(o.status).toBe(500);
  });

  it('a stream event whose data is broken JSON → 500', async () => {
    const { gw, s } = await boot();
    gw.script({
      kind: 'bytes',
      chunks: [
        'data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hi"}\n\n',
        'data: [DONE]\n\n',
      ],
    });
    const o = await run(s);
    expect(o.status).toBe(500);
  });

  it('a 200 application/json body that is plain text, not JSON → 500 unreadable (not retried as "unavailable")', async () => {
    const { gw, s } = await boot();
    const step: ScriptStep = {
      kind: 'bytes',
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      chunks: ['upstream exploded, sorry'],
    };
    gw.script(step, step, step);
    const o = await run(s);
    expect(o.status).toBe(500);
    expect(gw.requests).toHaveLength(1);
  });

  it('an empty reply (no text, no tool calls) → 200 with "No answer came back" copy', async () => {
    const { gw, s } = await boot();
    // asked for once more before the person is told
    gw.script({ kind: 'reply', text: '' }, { kind: 'reply', text: '' });
    const o = await run(s);
    expect(o.status).toBe(200);
    expect(o.reply).toMatch(/No answer came back/);
  });

  it('a reasoning-only reply, twice → 200 saying the model wrote only its reasoning (never the reasoning itself)', async () => {
    const { gw, s } = await boot();
    const reasoningOnly: ScriptStep = {
      kind: 'reply',
      text: '',
      reasoning: 'The user wants their weight trend.',
    };
    gw.script(reasoningOnly, reasoningOnly);
    const o = await run(s);
    expect(o.status).toBe(200);
    expect(o.reply).toMatch(/^The model wrote only its reasoning and no answer\. Please try again/);
    expect(o.reply).not.toContain('The user wants');
    expect(gw.requests).toHaveLength(2);
  });

  // vLLM serving Qwen3 with thinking turned off behind its deepseek_r1 reasoning parser files the
  // whole answer as reasoning_content, content null, finish_reason stop, on every request
  // (https://github.com/vllm-project/vllm/issues/19839): the person is told what is wrong and
  // what to check, not "No answer came back … please try again" forever
  it('the whole answer filed as reasoning_content with content null, twice → what to check on the server', async () => {
    const { gw, s } = await boot();
    const filedAsReasoning: ScriptStep = {
      kind: 'bytes',
      headers: { 'Content-Type': 'application/json' },
      chunks: [
        JSON.stringify({
          id: 'chatcmpl-8fd7068f',
          object: 'chat.completion',
          created: 1750236511,
          model: 'matrix-local-llm-reason',
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                reasoning_content: 'Your weight went down by 1.2 kg over the last four weeks.',
                content: null,
                tool_calls: [],
              },
              logprobs: null,
              finish_reason: 'stop',
              stop_reason: null,
            },
          ],
          usage: { prompt_tokens: 40, total_tokens: 60, completion_tokens: 20 },
        }),
      ],
    };
    gw.script(filedAsReasoning, filedAsReasoning);
    const o = await run(s);
    expect(o.status).toBe(200);
    expect(o.reply).toMatch(/^The model wrote only its reasoning and no answer\./);
    expect(o.reply).toContain('--reasoning-parser');
    expect(o.reply).not.toMatch(/No answer came back/);
    expect(o.reply).not.toContain('1.2 kg');
  });

  it('402 Payment Required counts as a used-up allowance → 429', async () => {
    const { gw, s } = await boot();
    gw.script({
      kind: 'error',
      status: 402,
      body: {
        error: { message: 'Insufficient credits. Add more using https://example.com/credits', code: 402 },
      },
    });
    const o = await run(s);
    expect(o.status).toBe(429);
    expect(o.error).toMatch(/allowance/i);
  });

  it('a budget error arriving inside a 200 event stream → 429 "allowance"', async () => {
    const { gw, s } = await boot();
    gw.script({
      kind: 'bytes',
      chunks: [
        'data: {"error":{"message":"Budget has been exceeded! Current cost: 5.01, Max budget: 5.0","type":"budget_exceeded","code":"400"}}\n\n',
      ],
    });
    const o = await run(s);
    expect(o.status).toBe(429);
    expect(o.error).toMatch(/allowance/i);
  });

  it('a 404 HTML page (wrong endpoint path) → 502, no HTML in our answer', async () => {
    const { gw, s } = await boot();
    gw.script({
      kind: 'error',
      status: 404,
      headers: { 'Content-Type': 'text/html' },
      body: '<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>',
    });
    const o = await run(s);
    expect(o.status).toBe(502);
    expect(o.error).not.toMatch(/<[a-z/]/i);
    expect(gw.requests).toHaveLength(1);
  });

  it('the connection dropped before any response (every attempt) → 502', async () => {
    const { gw, s } = await boot();
    gw.script({ kind: 'drop' }, { kind: 'drop' }, { kind: 'drop' });
    const o = await run(s);
    expect(o.status).toBe(502);
  });

  it('a dropped connection before any response is retried and the turn answers', async () => {
    const { gw, s } = await boot();
    gw.script({ kind: 'drop' }, { kind: 'reply', text: 'Second time lucky.' });
    const o = await run(s);
    expect(o.status).toBe(200);
    expect(o.reply).toBe('Second time lucky.');
    expect(gw.requests).toHaveLength(2);
  });

  it('a 401 from the gateway (bad key) → 502, not retried', async () => {
    const { gw, s } = await boot();
    gw.script({
      kind: 'error',
      status: 401,
      body: { error: { message: 'Incorrect API key provided: sk-test', type: 'invalid_request_error' } },
    });
    const o = await run(s);
    expect(o.status).toBe(502);
    expect(gw.requests).toHaveLength(1);
  });
});

describe('streamed only', () => {
  it('a stream cut after some text: the tokens already shown stay, then error {status:502} and done; not retried', async () => {
    const { gw, s } = await boot();
    gw.script(
      { kind: 'drop', afterText: 'Your weight this week', chunkDelayMs: 20 },
      { kind: 'reply', text: 'should not be requested' },
    );
    const o = await streamed(s);
    expect(o.status).toBe(502);
    const tokens = o.events
      .filter((e) => e.event === 'token')
      .map((e) => e.data.text)
      .join('');
    expect(tokens).toBe('Your weight this week');
    // a retry would show the text twice
    expect(gw.requests).toHaveLength(1);
    expect(gw.remaining).toBe(1);
  });

  it('errors that happen before the stream opens stay JSON (503 when chat is not configured)', async () => {
    const s = await startServer();
    opened.push({ s });
    const r = await postSse(`${s.url}/api/chat`, { stream: true, ...ask });
    expect(r.status).toBe(503);
    expect(r.events[0].event).toBe('json');
  });
});

describe('failures the person can fix are said in plain words, not "please try again"', () => {
  const cases: Array<[string, ScriptStep, RegExp]> = [
    [
      'a 401 (key refused) names CHAT_API_KEY',
      {
        kind: 'error',
        status: 401,
        body: { error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } },
      },
      /refused the API key.*CHAT_API_KEY/,
    ],
    [
      'a 404 (unknown model) names CHAT_MODEL and CHAT_ENDPOINT_URL',
      {
        kind: 'error',
        status: 404,
        body: { error: { message: 'The model `gpt-9` does not exist', code: 'model_not_found' } },
      },
      /does not know this model.*CHAT_MODEL/,
    ],
    [
      'a 413 says the conversation is too long',
      { kind: 'error', status: 413, headers: { 'Content-Type': 'text/plain' }, body: 'Payload Too Large' },
      /conversation is too long/,
    ],
    [
      'a context-length error inside the stream, for a first short message, says the model needs a larger context',
      {
        kind: 'bytes',
        chunks: [
          `data: ${JSON.stringify({ error: { code: 400, message: "This model's maximum context length is 8192 tokens" } })}\n\n`,
        ],
      },
      /context is too small.*larger context/,
    ],
    [
      'a 200 web page (wrong address, or a network sign-in page) names CHAT_ENDPOINT_URL',
      {
        kind: 'bytes',
        headers: { 'Content-Type': 'text/html' },
        chunks: [
          '<!DOCTYPE html><html><head><title>Sign in to Guest WiFi</title></head><body></body></html>',
        ],
      },
      /web page.*CHAT_ENDPOINT_URL/,
    ],
  ];
  for (const [label, step, copy] of cases) {
    it(label, async () => {
      const { gw, s } = await boot();
      gw.script(step, step, step);
      const o = await buffered(s);
      expect(o.status).toBe(502);
      expect(o.error).toMatch(copy);
      expect(o.error).not.toMatch(/please try again/i);
      expect(o.error).not.toMatch(/<[a-z/]/i);
    });
  }
});
