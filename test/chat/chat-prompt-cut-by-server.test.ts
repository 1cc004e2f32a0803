// Ollama cuts a prompt longer than the context the model was loaded with (4096 tokens unless
// set) and answers 200 as if nothing happened: its log says "truncating input prompt limit=2050
// prompt=8707 keep=4 new=2050", the reply only `prompt_tokens` (`prompt_eval_count`) of what it
// kept — the window itself, or half of it plus two. Klebb's instructions and tools alone are
// several thousand tokens, so with the default window the model never saw them and answered blind,
// and nobody was told. The reply now says the server cut the request, and what helps. Counts
// that are low for another reason (a server counting only what its cache did not hold) land
// anywhere, not at a window's edge, and say nothing.
import { afterEach, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { postSse } from '../helpers/sse-client.js';

const chat = chatServers({ CHAT_ITER_TIMEOUT_MS: '5000', CHAT_TURN_DEADLINE_MS: '8000' });
afterEach(() => chat.closeAll());

const ANSWER = 'You drank 1.5 l of water today.';
const ask = (content = 'How much water today?') => ({ messages: [{ role: 'user', content }] });

/** Ollama's /v1 reply, buffered, with the usage it reports. */
const ollamaJson = (usage: Record<string, unknown>): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'application/json' },
  chunks: [
    JSON.stringify({
      id: 'chatcmpl-245',
      object: 'chat.completion',
      created: 1765000000,
      model: 'qwen2.5:7b',
      system_fingerprint: 'fp_ollama',
      choices: [{ index: 0, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' }],
      usage,
    }),
  ],
});

it('streamed, the default 4096 window: the reply says the instructions were cut and a larger context helps', async () => {
  const { gw, s } = await chat.boot();
  gw.script({
    kind: 'reply',
    text: ANSWER,
    model: 'qwen2.5:7b',
    usage: { prompt_tokens: 4096, completion_tokens: 9, total_tokens: 4105 },
  });
  const r = await postSse(`${s.url}/api/chat`, { stream: true, ...ask() });
  const reply = r.events.find((e) => e.event === 'reply')?.data.reply as string;
  expect(reply.startsWith(ANSWER)).toBe(true);
  expect(reply).toMatch(
    /server cut this request to fit the model's context \(it read about 4 096 of the roughly \d/,
  );
  expect(reply).toMatch(/instructions and tools/);
  expect(reply).toMatch(/OLLAMA_CONTEXT_LENGTH/);
  expect(reply).toMatch(/a new conversation will not help/);
});

for (const [shape, usage] of [
  ['prompt_tokens', { prompt_tokens: 2050, completion_tokens: 9, total_tokens: 2059 }],
  ['native prompt_eval_count', { prompt_eval_count: 2050, eval_count: 9 }],
] as const) {
  it(`buffered, half the window kept (${shape} 2050): said under the reply`, async () => {
    const { gw, s } = await chat.boot();
    gw.script(ollamaJson(usage));
    const r = await s.api('/api/chat', { json: ask() });
    expect(r.status).toBe(200);
    expect(r.body.reply).toMatch(/^You drank 1\.5 l of water today\.\n\nNote: the model's server cut/);
    expect(r.body.reply).toMatch(/read about 2 050 of/);
  });
}

it('a long conversation cut to a 16384 window: start a new conversation, or a larger context', async () => {
  const { gw, s } = await chat.boot();
  gw.script(ollamaJson({ prompt_tokens: 16384, completion_tokens: 9, total_tokens: 16393 }));
  const history = Array.from({ length: 40 }, (_, i) => [
    { role: 'user', content: `Day ${i}: ${'I walked by the river and logged my meals. '.repeat(40)}` },
    { role: 'assistant', content: `Noted for day ${i}. ${'Logged the walk and the meals. '.repeat(30)}` },
  ]).flat();
  const r = await s.api('/api/chat', {
    json: { messages: [...history, { role: 'user', content: 'How much water today?' }] },
  });
  expect(r.body.reply).toMatch(/server cut this conversation/);
  expect(r.body.reply).toMatch(/Start a new conversation/);
});

for (const [what, usage] of [
  ['the whole request read', { prompt_tokens: 9321, completion_tokens: 9, total_tokens: 9330 }],
  ["a count at a window's edge that is the whole request", { prompt_tokens: 5120, completion_tokens: 9 }],
  ['a count of what the cache did not hold', { prompt_tokens: 311, completion_tokens: 9, total_tokens: 320 }],
  [
    'a window-sized count with the rest served from the cache',
    {
      prompt_tokens: 4096,
      completion_tokens: 9,
      total_tokens: 4105,
      prompt_tokens_details: { cached_tokens: 5120 },
    },
  ],
] as const) {
  it(`${what}: the reply is the answer alone (guards what worked)`, async () => {
    const { gw, s } = await chat.boot();
    gw.script(ollamaJson(usage));
    const r = await s.api('/api/chat', { json: ask() });
    expect(r.body.reply).toBe(ANSWER);
  });
}

// Ollama releases that counted only the prompt tokens newly read, not those its cache held
// (fixed upstream by adding the cached count back), report a few hundred tokens on every
// round-trip after the first: the tool result and little else. Such a count often sits at the
// edge of a tiny window (130 is half of 256 plus two, 767 one short of 768), but no model that
// runs this assistant is loaded with a window under 2048 tokens, so it is no cut and says nothing.
for (const read of [130, 258, 514, 767, 1000]) {
  it(`a cache-only count of ${read} (the edge of a window too small to run the assistant) says nothing`, async () => {
    const { gw, s } = await chat.boot();
    gw.script(ollamaJson({ prompt_tokens: read, completion_tokens: 9, total_tokens: read + 9 }));
    const r = await s.api('/api/chat', { json: ask() });
    expect(r.status).toBe(200);
    expect(r.body.reply).toBe(ANSWER);
  });
}
