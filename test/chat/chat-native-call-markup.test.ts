// A model served without the parser for its own call markup writes its tool call as answer text
// (Qwen3-Coder's <function=…><parameter=…> blocks through Ollama or llama.cpp, GLM's
// <arg_key>/<arg_value> pairs through LM Studio). Through the real server the call runs with the
// real row tool: the row is on the card, the person reads the model's answer, never the markup.
import { afterEach, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import { postSse } from '../helpers/sse-client.js';
import { waterCard } from '../helpers/water-card.js';

const chat = chatServers({ CHAT_ITER_TIMEOUT_MS: '5000' });
afterEach(() => chat.closeAll());

const card = waterCard();
const ask = { messages: [{ role: 'user', content: 'log 250 ml of water on 1 May' }] };

it('Qwen3-Coder markup, streamed: the row is appended and only the answer is shown', async () => {
  const { gw, s } = await chat.boot();
  await s.api('/api/manifests', { json: card });
  const markup =
    'I\'ll log it.\n\n<function=append_row>\n<parameter=id>\nwater\n</parameter>\n<parameter=value>\n{"date": "2026-05-01", "ml": 250}\n</parameter>\n</function>\n</tool_call>';
  gw.script(
    { kind: 'reply', chunks: markup.match(/[\s\S]{1,9}/g) ?? [], finishReason: 'stop' },
    { kind: 'reply', text: 'Logged 250 ml for 1 May.' },
  );
  const r = await postSse(`${s.url}/api/chat`, { stream: true, ...ask });
  const reply = r.events.find((e) => e.event === 'reply')?.data as { reply?: string } | undefined;
  expect(reply?.reply).toBe('Logged 250 ml for 1 May.');
  expect((await s.api('/api/manifests/water/data')).body.data).toEqual([{ date: '2026-05-01', ml: 250 }]);
  // the call went back to the model as a call, with its result, not as text
  const next = gw.requests[1].body.messages;
  expect(next.at(-2)).toMatchObject({
    role: 'assistant',
    tool_calls: [{ function: { name: 'append_row' } }],
  });
  expect(next.at(-1)).toMatchObject({ role: 'tool' });
});

it('GLM markup, buffered: the row is appended', async () => {
  const { gw, s } = await chat.boot();
  await s.api('/api/manifests', { json: card });
  gw.script(
    {
      kind: 'reply',
      text: '<tool_call>append_row\n<arg_key>id</arg_key>\n<arg_value>water</arg_value>\n<arg_key>value</arg_key>\n<arg_value>{"date": "2026-05-01", "ml": 250}</arg_value>\n</tool_call>',
      finishReason: 'stop',
    },
    { kind: 'reply', text: 'Logged.' },
  );
  const r = await s.api('/api/chat', { json: ask });
  expect(r.body.reply).toBe('Logged.');
  expect((await s.api('/api/manifests/water/data')).body.data).toEqual([{ date: '2026-05-01', ml: 250 }]);
});
