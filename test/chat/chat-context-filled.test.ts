// Klebb sets no output limit, so when a local server (Ollama, llama.cpp, LM Studio, vLLM with no
// max_tokens) stops an answer with finish_reason "length", it is often the model's context that
// filled up: prompt and answer together reach the window it was loaded with (3 900 + 196 = 4 096).
// The reply said "it reached the length limit for one reply. Say keep going", and keep going sent
// a longer prompt that stopped at the same place. The cause is now named from the counts (or from
// the provider's own word, model_context_window_exceeded / model_length) with what helps: a new
// conversation or a larger context. An output limit (the answer's own count round, 4 096) is
// still an output limit.
import { afterEach, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { postSse } from '../helpers/sse-client.js';

const chat = chatServers({ CHAT_ITER_TIMEOUT_MS: '5000', CHAT_TURN_DEADLINE_MS: '8000' });
afterEach(() => chat.closeAll());

const PARTIAL = 'Here is your week: Monday 1.5 l, Tuesday 2 l, Wednesday';
const ask = { messages: [{ role: 'user', content: 'Summarise my water this week.' }] };

/** A buffered reply as Ollama's /v1 sends it. */
const reply = (
  message: Record<string, unknown>,
  finish: string,
  usage?: Record<string, unknown>,
): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'application/json' },
  chunks: [
    JSON.stringify({
      id: 'chatcmpl-7',
      object: 'chat.completion',
      model: 'qwen2.5:7b',
      system_fingerprint: 'fp_ollama',
      choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
      ...(usage ? { usage } : {}),
    }),
  ],
});

it('an answer stopped with prompt and answer at the 4096 window: the context filled, not "keep going"', async () => {
  const { gw, s } = await chat.boot();
  gw.script(
    reply({ content: PARTIAL }, 'length', {
      prompt_tokens: 3900,
      completion_tokens: 196,
      total_tokens: 4096,
    }),
  );
  const r = await s.api('/api/chat', { json: ask });
  expect(r.status).toBe(200);
  expect(r.body.reply).toMatch(
    /^Here is your week: Monday 1\.5 l, Tuesday 2 l, Wednesday\n\nMy answer was cut off here/,
  );
  expect(r.body.reply).toMatch(/filled the model's context \(4 096 tokens\)/);
  expect(r.body.reply).toMatch(/Start a new conversation, or give the model a larger context/);
  expect(r.body.reply).not.toMatch(/Say "keep going"/);
});

it('streamed, one token short of an 8192 window: said the same way', async () => {
  const { gw, s } = await chat.boot();
  gw.script({
    kind: 'reply',
    text: PARTIAL,
    finishReason: 'length',
    usage: { prompt_tokens: 7000, completion_tokens: 1191, total_tokens: 8191 },
  });
  const r = await postSse(`${s.url}/api/chat`, { stream: true, ...ask });
  const final = r.events.find((e) => e.event === 'reply')?.data.reply as string;
  expect(final).toMatch(/filled the model's context \(8 191 tokens\)/);
});

it("the provider's own word for it (model_context_window_exceeded), no counts: said the same way", async () => {
  const { gw, s } = await chat.boot();
  gw.script(reply({ content: PARTIAL }, 'model_context_window_exceeded'));
  const r = await s.api('/api/chat', { json: ask });
  expect(r.body.reply).toMatch(/filled the model's context, so asking me to keep going/);
});

it('no answer before the context filled: said so with what helps, not "raise the output limit"', async () => {
  const { gw, s } = await chat.boot();
  gw.script(
    reply({ content: '' }, 'length', { prompt_tokens: 8100, completion_tokens: 92, total_tokens: 8192 }),
  );
  const r = await s.api('/api/chat', { json: ask });
  expect(r.status).toBe(200);
  expect(r.body.reply).toMatch(
    /^This conversation filled the model's context before it wrote an answer\. Start a new/,
  );
});

it('a tool call cut off when the context filled: not run, and said so', async () => {
  const { gw, s } = await chat.boot();
  gw.script(
    reply(
      {
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'log_row', arguments: '{"card_id": "wat' } },
        ],
      },
      'length',
      { prompt_tokens: 4000, completion_tokens: 96, total_tokens: 4096 },
    ),
  );
  const r = await s.api('/api/chat', { json: ask });
  expect(r.body.error).toMatch(
    /filled the model's context in the middle of a tool call, so the call was not run/,
  );
  expect(gw.requests).toHaveLength(1);
});

for (const [what, usage] of [
  ['an output limit (the answer alone 4096 tokens)', { prompt_tokens: 5000, completion_tokens: 4096 }],
  ['no counts', undefined],
  ['counts nowhere near a window', { prompt_tokens: 5210, completion_tokens: 733 }],
] as const) {
  it(`${what}: still "keep going" (guards what worked)`, async () => {
    const { gw, s } = await chat.boot();
    gw.script(reply({ content: PARTIAL }, 'length', usage));
    const r = await s.api('/api/chat', { json: ask });
    expect(r.body.reply).toMatch(/reached the length limit for one reply\. Say "keep going"/);
  });
}

it("a hosted model's own context (the provider's word for it): no server setting to change, another model or a new conversation", async () => {
  const { gw, s } = await chat.boot();
  gw.script(reply({ content: PARTIAL }, 'model_context_window_exceeded'));
  const r = await s.api('/api/chat', { json: ask });
  expect(r.body.reply).toMatch(
    /keep going would stop at the same place\. Start a new conversation, or choose a model with a larger context in CHAT_MODEL\.$/,
  );
  expect(r.body.reply).not.toMatch(/OLLAMA_CONTEXT_LENGTH|num_ctx|llama-server/);
  const { gw: gw2, s: s2 } = await chat.boot();
  gw2.script(reply({ content: '' }, 'model_length'));
  const empty = await s2.api('/api/chat', { json: ask });
  expect(empty.status).toBe(200);
  expect(empty.body.reply ?? empty.body.error).toMatch(
    /^This conversation filled the model's context before it wrote an answer\. Start a new conversation, or choose a model with a larger context in CHAT_MODEL\.$/,
  );
});
