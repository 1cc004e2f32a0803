// The re-framing property and the next-request invariant over the handed gateway cases (the
// cases folder, outside the repository): every valid stream among them, re-served with random
// re-framing, assembles to the same reply and tool calls; every case with tool calls leads to a
// next request that passes the strict request validator. The same properties over our own
// fixtures run in npm test (test/gateway/).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTurn } from '../../../src/chat/agent/run-turn.js';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { ProviderMemory } from '../../../src/chat/gateway/provider-memory.js';
import { type Expected, expectAssembled } from '../../gateway/corpus.js';
import { asBuffered, eventsOf, prng, reframe } from '../../gateway/reframe.js';
import { configFor, userSays } from '../../gateway/support.js';
import { validateChatRequest } from '../../helpers/chat-request-validator.js';
import { readCaseBytes, type ScriptedGateway, startScriptedGateway } from '../../helpers/scripted-gateway.js';

/** The valid replies among the cases and what each must assemble to. */
const STREAMS: Array<{ caseId: string; behaviour: string; expected: Expected }> = [
  {
    caseId: 'G02',
    behaviour: 'a streamed call without id',
    expected: { text: '', calls: [['read_file', { filepath: 'convex/schema.ts' }]] },
  },
  {
    caseId: 'G04',
    behaviour: 'a call with finish_reason stop',
    expected: { calls: [['get_weather', { location: 'Lima, Peru' }]] },
  },
  { caseId: 'G06', behaviour: 'comment keep-alives around the events', expected: { text: 'The next day' } },
  {
    caseId: 'G09',
    behaviour: 'EOF after the final chunk without [DONE]',
    expected: { text: 'Hello!', usage: { promptTokens: 9, completionTokens: 2, totalTokens: 11 } },
  },
  {
    caseId: 'G16',
    behaviour: 'reasoning in delta.reasoning',
    expected: { text: 'The answer is 4.', reasoning: /2 plus 2/ },
  },
  {
    caseId: 'G17',
    behaviour: 'usage in a trailing empty-choices chunk',
    expected: { text: 'Hi there.', usage: { promptTokens: 12, completionTokens: 3, totalTokens: 15 } },
  },
  {
    caseId: 'G21',
    behaviour: 'prose after the JSON arguments',
    expected: { calls: [['memory_search', { query: 'TO-DO', limit: 10 }]] },
  },
  { caseId: 'G24', behaviour: 'CRLF framing and data: without a space', expected: { text: 'Hello' } },
];

/** The cases with tool calls, with whether they are streams. */
const WITH_CALLS = [
  { caseId: 'G01', stream: false },
  { caseId: 'G02', stream: true },
  { caseId: 'G04', stream: true },
  { caseId: 'G21', stream: true },
];

let gw: ScriptedGateway;
beforeAll(async () => {
  gw = await startScriptedGateway();
});
afterAll(() => gw.close());

describe.each(STREAMS)('$behaviour', (c) => {
  const events = eventsOf(readCaseBytes(c.caseId).toString('utf8'));
  for (let i = 0; i < 6; i++) {
    const seed = 5000 + 100 * STREAMS.indexOf(c) + i;
    it(`assembles the same when re-framed (seed ${seed})`, async () => {
      const { chunks, hold } = reframe(events, prng(seed));
      gw.script({ kind: 'bytes', chunks, end: hold ? 'hold' : 'end' });
      const r = await callGateway(configFor(gw.url, { finishGraceMs: 30, idleTimeoutMs: 10_000 }), {
        messages: userSays('go'),
        stream: true,
      });
      expectAssembled(r, c.expected);
    });
  }
  it('assembles the same from one buffered JSON body for a streamed request', async () => {
    gw.script({
      kind: 'bytes',
      headers: { 'Content-Type': 'application/json' },
      chunks: [asBuffered(events, c.expected)],
    });
    expectAssembled(
      await callGateway(configFor(gw.url), { messages: userSays('go'), stream: true }),
      c.expected,
    );
  });
});

for (const c of WITH_CALLS) {
  it(`the request after the ${c.stream ? 'streamed' : 'buffered'} case ${c.caseId} passes the strict validator`, async () => {
    const problems: string[] = [];
    gw.script(
      { kind: 'raw', caseId: c.caseId },
      {
        kind: 'decide',
        choose: (q) => {
          problems.push(...validateChatRequest(q.body));
          return problems.length === 0
            ? { kind: 'reply', text: 'All done.' }
            : { kind: 'error', status: 400, body: { error: { message: problems.join('; ') } } };
        },
      },
    );
    const result = await runTurn(
      { turnId: 't', messages: userSays('go'), stream: c.stream, voiceMode: false },
      {
        gateway: { url: gw.url, model: 'm', maxRetries: 0, memory: new ProviderMemory(), finishGraceMs: 50 },
        budgets: { maxRoundTrips: 3, iterTimeoutMs: 10_000, turnDeadlineMs: 0 },
        system: { role: 'system', content: 'You are Klebb.' },
        tools: [],
        dispatch: async () => ({ ok: true, content: '{"ok":true}' }),
        parseVoice: (t) => ({ speak: t, display: t }),
      },
      () => {},
      new AbortController().signal,
    );
    expect(problems).toEqual([]);
    expect(result.payload?.reply).toBe('All done.');
  });
}
