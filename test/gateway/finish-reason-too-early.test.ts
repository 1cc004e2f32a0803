// A finish_reason said before the stream really ended: proxies that translate another API set it
// on every chunk (finishReason STOP on each piece), or flush held-back text after the chunk that
// carried it. The answer goes on after it, and a slow model (a local one on small hardware sends a
// piece every second or so) must not have its answer cut off at the first piece that said "stop":
// once more of the answer arrives after a finish_reason, the stream ends with [DONE] or the end of
// the body, not a moment after that finish_reason. (Only a piece arriving within the finish grace
// can show that: a finish_reason followed by silence longer than the grace still ends the stream.)
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const piece = (content: string, finish: string | null) =>
  `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;
const ANSWER = 'You walked 8,200 steps today, a little more than yesterday.';
/** The answer in pieces of two words. */
const PIECES = ANSWER.match(/\S+\s+\S+\s*|\S+\s*/g) ?? [];
const cfg = () => configFor(gw.url, { finishGraceMs: 300, idleTimeoutMs: 10_000 });

it('finish_reason "stop" on every piece, the answer streaming for longer than the finish grace: the whole answer', async () => {
  gw.script({
    kind: 'bytes',
    headers: { 'Content-Type': 'text/event-stream' },
    chunkDelayMs: 120,
    chunks: [...PIECES.map((p) => piece(p, 'stop')), 'data: [DONE]\n\n'],
  });
  const heard = recordHooks();
  const result = await callGateway(cfg(), { messages: userSays('steps?'), stream: true }, heard.hooks);
  expect(result.text).toBe(ANSWER);
  expect(heard.tokens.join('')).toBe(ANSWER);
});

it('text flushed after the chunk that said "stop", the body ending without [DONE]: the whole answer', async () => {
  gw.script({
    kind: 'bytes',
    headers: { 'Content-Type': 'text/event-stream' },
    chunkDelayMs: 120,
    chunks: [piece(PIECES[0] ?? '', 'stop'), ...PIECES.slice(1).map((p) => piece(p, null))],
  });
  const result = await callGateway(cfg(), { messages: userSays('steps?'), stream: true });
  expect(result.text).toBe(ANSWER);
});

// guards the grace itself: a finished stream whose server then holds the connection open is
// still settled a moment after its finish_reason
it('a finish_reason and then only silence on an open connection: settled after the grace', async () => {
  gw.script({
    kind: 'bytes',
    headers: { 'Content-Type': 'text/event-stream' },
    chunks: [piece(ANSWER, 'stop')],
    end: 'hold',
  });
  const started = Date.now();
  const result = await callGateway(cfg(), { messages: userSays('steps?'), stream: true });
  expect(result.text).toBe(ANSWER);
  expect(Date.now() - started).toBeLessThan(3_000);
});
