// Whole JSON followed by bytes that are not part of it: a NUL or a stray character after a stream
// event's chunk, two chunks flushed into one event, a buffered reply padded or written twice.
// JSON.parse refuses the whole, but every chunk and the reply are whole: they are read, and what
// follows them is ignored (with a warning), instead of the reply being 'could not be read'.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const chunk = (content: string, finish: string | null = null) =>
  JSON.stringify({
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { content }, finish_reason: finish }],
  });
const sse = (...events: string[]) => ({
  kind: 'bytes' as const,
  headers: { 'Content-Type': 'text/event-stream' },
  chunks: [...events.map((e) => `data: ${e}\n\n`), 'data: [DONE]\n\n'],
});
const reply = JSON.stringify({
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Drink a glass.' }, finish_reason: 'stop' }],
});
const json = (body: string) => ({
  kind: 'bytes' as const,
  headers: { 'Content-Type': 'application/json' },
  chunks: [body],
});

const streams: Array<[string, ReturnType<typeof sse>]> = [
  ['a NUL after each chunk', sse(`${chunk('Drink ')}\u0000`, `${chunk('a glass.', 'stop')}\u0000`)],
  ['a stray character after a chunk', sse(`${chunk('Drink ')}}`, chunk('a glass.', 'stop'))],
  ['two chunks flushed into one event', sse(`${chunk('Drink ')}${chunk('a glass.', 'stop')}`)],
  ['two chunks in one event, a space between', sse(`${chunk('Drink ')} ${chunk('a glass.', 'stop')}`)],
];
for (const [what, script] of streams) {
  it(`a stream with ${what}: every chunk is read`, async () => {
    gw.script(script);
    const heard = recordHooks();
    const result = await callGateway(
      configFor(gw.url),
      { messages: userSays('water?'), stream: true },
      heard.hooks,
    );
    expect(result.text).toBe('Drink a glass.');
    expect(heard.tokens.join('')).toBe('Drink a glass.');
  });
}

const bodies: Array<[string, string]> = [
  ['followed by a NUL', `${reply}\u0000`],
  ['written twice', `${reply}${reply}`],
  ['followed by junk on the same line', `${reply}  <!-- 12ms -->`],
];
for (const [what, body] of bodies) {
  it(`a JSON reply ${what}: the reply is read, buffered and for a streamed request`, async () => {
    gw.script(json(body), json(body));
    for (const stream of [false, true]) {
      const heard = recordHooks();
      const result = await callGateway(
        configFor(gw.url),
        { messages: userSays('water?'), stream },
        heard.hooks,
      );
      expect(result.text).toBe('Drink a glass.');
    }
  });
}
