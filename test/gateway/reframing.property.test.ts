// Property: every valid stream of the corpus, re-served with random re-framing, assembles to the
// same reply and the same tool calls. The framings: cuts at random byte offsets (inside UTF-8
// characters too: keep-alive comments carry multi-byte characters), LF, CRLF or single-LF
// separators, comment keep-alives between events, `[DONE]` missing with the socket held open,
// and the reply as one buffered JSON body although a stream was asked for. The random source is
// seeded, so a failure names the random seed that reproduces it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { readFixture, type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { expectAssembled, REPLY_CORPUS } from './corpus.js';
import { asBuffered, eventsOf, prng, reframe } from './reframe.js';
import { configFor, userSays } from './support.js';

const FRAMINGS_PER_STREAM = 6;

let gw: ScriptedGateway;
beforeAll(async () => {
  gw = await startScriptedGateway();
});
afterAll(() => gw.close());

describe.each(REPLY_CORPUS)('$behaviour', (b) => {
  const events = eventsOf(readFixture(b.fixture).body.toString('utf8'));
  for (let i = 0; i < FRAMINGS_PER_STREAM; i++) {
    const seed = 1000 * (REPLY_CORPUS.indexOf(b) + 1) + i;
    it(`assembles the same when re-framed (seed ${seed})`, async () => {
      const { chunks, hold } = reframe(events, prng(seed));
      gw.script({ kind: 'bytes', chunks, end: hold ? 'hold' : 'end' });
      const result = await callGateway(configFor(gw.url, { finishGraceMs: 30, idleTimeoutMs: 10_000 }), {
        messages: userSays('go'),
        stream: true,
      });
      expectAssembled(result, b.expected);
    });
  }
  it('assembles the same from one buffered JSON body for a streamed request', async () => {
    gw.script({
      kind: 'bytes',
      headers: { 'Content-Type': 'application/json' },
      chunks: [asBuffered(events, b.expected)],
    });
    const result = await callGateway(configFor(gw.url), { messages: userSays('go'), stream: true });
    expect(result.streamed).toBe(false);
    expectAssembled(result, b.expected);
  });
});
