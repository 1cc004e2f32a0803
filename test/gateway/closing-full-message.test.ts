// Streams that end by sending the whole answer once more: a terminal chunk shaped like a full
// message (`message.content`, no `delta`) holding everything streamed so far, or a last delta that
// re-emits the complete answer (a relay re-sending its final event as one more delta). The answer
// is read and shown once; a whole message that adds a tail adds only the tail; a short delta that
// happens to equal the text before it is still a real delta.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const event = (choice: Record<string, unknown>) =>
  `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, finish_reason: null, ...choice }] })}\n\n`;
const delta = (content: string, finish: string | null = null) =>
  event({ delta: { content }, finish_reason: finish });
const message = (content: string, finish: string | null = 'stop') =>
  event({ message: { role: 'assistant', content }, finish_reason: finish });
const stream = (...events: string[]) => ({
  kind: 'bytes' as const,
  headers: { 'Content-Type': 'text/event-stream' },
  chunks: [...events, 'data: [DONE]\n\n'],
});
const ANSWER = 'Drink a glass of water before bed.';

const cases: Array<[string, ReturnType<typeof stream>, string]> = [
  [
    'a terminal full message holding the whole answer',
    stream(delta('Drink a glass '), delta('of water before bed.'), message(ANSWER)),
    ANSWER,
  ],
  [
    'a last delta re-emitting the whole answer',
    stream(delta('Drink a glass '), delta('of water before bed.'), delta(ANSWER, 'stop')),
    ANSWER,
  ],
  ['a terminal full message adding a tail', stream(delta('Drink a glass '), message(ANSWER)), ANSWER],
  ['a short delta equal to the text before it', stream(delta('ha'), delta('ha', 'stop')), 'haha'],
];
for (const [what, script, expected] of cases) {
  it(`a stream with ${what}: the answer once`, async () => {
    gw.script(script);
    const heard = recordHooks();
    const result = await callGateway(
      configFor(gw.url),
      { messages: userSays('tip?'), stream: true },
      heard.hooks,
    );
    expect(result.text).toBe(expected);
    expect(heard.tokens.join('')).toBe(expected);
  });
}
