// Streams whose every piece is the whole text so far instead of what it adds: some proxies and
// relays send snapshots where the protocol has deltas. The answer is shown and kept once, not
// with each beginning repeated; reasoning sent the same way is read the same way. Real deltas
// that happen to repeat the text before them ('ha' then 'haha') are not taken for snapshots: that
// takes a run of pieces each beginning with the whole text so far, and a text long enough.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, type ScriptStep, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

type Delta = Record<string, unknown>;
const event = (delta: Delta | undefined, finish: string | null = null, message?: Delta) =>
  `data: ${JSON.stringify({
    object: 'chat.completion.chunk',
    choices: [
      { index: 0, ...(delta ? { delta } : {}), ...(message ? { message } : {}), finish_reason: finish },
    ],
  })}\n\n`;
const stream = (...events: string[]): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'text/event-stream' },
  chunks: [...events, 'data: [DONE]\n\n'],
  chunkDelayMs: 5,
});
/** Every prefix of `text` ending at a word, as the pieces a snapshot stream sends. */
const growing = (text: string) =>
  text
    .split(/(?<= )/)
    .map((_, i, words) => words.slice(0, i + 1).join(''))
    .map((snapshot, i, all) => event({ content: snapshot }, i === all.length - 1 ? 'stop' : null));

async function ask(step: ScriptStep) {
  gw.script(step);
  const heard = recordHooks();
  const result = await callGateway(
    configFor(gw.url),
    { messages: userSays('water?'), stream: true },
    heard.hooks,
  );
  return { result, shown: heard.tokens.join(''), reasoning: heard.reasoning.join('') };
}

const ANSWER = 'Hi! You drank 1.5 l of water today, 500 ml short of your goal.';

it('each piece the whole answer so far: shown and kept once', async () => {
  const { result, shown } = await ask(stream(...growing(ANSWER)));
  expect(result.text).toBe(ANSWER);
  expect(shown).toBe(ANSWER);
  expect(result.warnings).toContain('read the answer text as snapshots of the whole text so far');
});

it('snapshots, the last one sent twice and then as a full message: shown once', async () => {
  const { result, shown } = await ask(
    stream(
      ...growing(ANSWER).slice(0, -1),
      event({ content: ANSWER }),
      event({ content: ANSWER }, 'stop'),
      event(undefined, 'stop', { role: 'assistant', content: ANSWER }),
    ),
  );
  expect(result.text).toBe(ANSWER);
  expect(shown).toBe(ANSWER);
});

it('reasoning and answer both as snapshots: each once, kept apart', async () => {
  const thinking = 'The person asks about water. The water card has 1.5 l for today.';
  const reasoningSnapshots = thinking
    .split(/(?<= )/)
    .map((_, i, w) => event({ reasoning_content: w.slice(0, i + 1).join('') }));
  const { result, shown, reasoning } = await ask(stream(...reasoningSnapshots, ...growing(ANSWER)));
  expect(result.reasoning).toBe(thinking);
  expect(reasoning).toBe(thinking);
  expect(result.text).toBe(ANSWER);
  expect(shown).toBe(ANSWER);
});

it('a snapshot stream ending with a tool call: the text before it once, the call run', async () => {
  const text = 'Let me look at your water card first.';
  const call = event({
    tool_calls: [
      {
        index: 0,
        id: 'call_1',
        type: 'function',
        function: { name: 'read_rows', arguments: '{"id":"water"}' },
      },
    ],
  });
  const { result } = await ask(
    stream(...growing(text).map((e) => e.replace('"stop"', 'null')), call, event({}, 'tool_calls')),
  );
  expect(result.text).toBe(text);
  expect(result.toolCalls.map((c) => [c.name, c.parsedArguments])).toEqual([['read_rows', { id: 'water' }]]);
});

// guards real deltas: a short run of pieces repeating the text before them stays deltas
it("real deltas 'ha', 'haha', 'hahaha': all of them", async () => {
  const { result, shown } = await ask(
    stream(event({ content: 'ha' }), event({ content: 'haha' }), event({ content: 'hahaha' }, 'stop')),
  );
  expect(result.text).toBe('hahahahahaha');
  expect(shown).toBe('hahahahahaha');
});

// guards real deltas: one piece that begins with the whole text so far is not a run
it('a real delta beginning with the whole text so far, once: kept as a delta', async () => {
  const pieces = ['Steps: 1200', 'Steps: 12000 is the goal', ', and you are close.'];
  const { result } = await ask(
    stream(...pieces.map((p, i) => event({ content: p }, i === pieces.length - 1 ? 'stop' : null))),
  );
  expect(result.text).toBe(pieces.join(''));
});
