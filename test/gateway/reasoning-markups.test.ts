// Reasoning markup other than <think> (Magistral's [THINK], Seed's <seed:think>, gpt-oss's harmony
// channels) is read in the corpus (corpus.ts); these are its neighbours, which must stay as they
// are: an answer that merely begins with the word "analysis", and a block that mentions another
// model's closing tag (only its own closing form ends it).
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, recordHooks, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const streamed = (...pieces: string[]): ScriptStep => ({
  kind: 'bytes',
  chunks: [
    ...pieces.map(
      (content) =>
        `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}\n\n`,
    ),
    `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
    'data: [DONE]\n\n',
  ],
});

for (const answer of ['analysis: your sleep was steady all week.', 'Analysis of your week: steady sleep.']) {
  it(`an answer beginning "${answer.slice(0, 9)}" stays the answer`, async () => {
    gw.script(streamed(answer.slice(0, 5), answer.slice(5)));
    const r = recordHooks();
    const result = await callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }, r.hooks);
    expect(result.text).toBe(answer);
    expect(r.tokens.join('')).toBe(answer);
    expect(result.reasoning).toBe('');
  });
}

it("a think block that mentions another model's closing tag ends only at its own", async () => {
  gw.script(streamed('<think>Magistral closes with [/THINK]; ', 'not this one.</think>', 'Six glasses.'));
  const result = await callGateway(configFor(gw.url), { messages: userSays('x'), stream: true });
  expect(result.text).toBe('Six glasses.');
  expect(result.reasoning).toBe('Magistral closes with [/THINK]; not this one.');
});

// an ordinary answer that quotes a closing tag (in code, or after its opening tag) is all answer,
// and the model is not taken for one that starts inside its reasoning
for (const answer of [
  'Magistral wraps its reasoning in `[THINK]` and `[/THINK]`; you will not see it.',
  'Models like R1 write <think> and </think> around their reasoning.',
  'A template that opens it in the prompt leaves only `</think>` in the text.',
]) {
  it(`an answer quoting a closing tag stays whole: ${answer.slice(0, 40)}`, async () => {
    gw.script(streamed(answer.slice(0, 20), answer.slice(20)), streamed('Second ', 'reply.'));
    const r = recordHooks();
    const cfg = configFor(gw.url);
    const result = await callGateway(cfg, { messages: userSays('x'), stream: true }, r.hooks);
    expect(result.text).toBe(answer);
    expect(r.tokens.join('')).toBe(answer);
    expect(result.reasoning).toBe('');
    const next = recordHooks();
    await callGateway(cfg, { messages: userSays('y'), stream: true }, next.hooks);
    // streamed piece by piece, not held back as if it might be reasoning
    expect(next.tokens[0]).toBe('Second ');
  });
}

// a model whose template opens the reasoning in the prompt (R1 distills, QwQ on Ollama or
// llama.cpp) writes only the closing tag: the text streamed before it is taken back as reasoning,
// and that reasoning is kept once (it was kept twice, and went back so to a provider that asks
// for it in a tool loop)
it('reasoning before a bare closing tag is kept once, as the reasoning hook heard it', async () => {
  gw.script(streamed('The water card ', 'holds six glasses.</th', 'ink>\n\nSix glasses ', 'so far.'));
  const r = recordHooks();
  const result = await callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }, r.hooks);
  expect(result.text).toBe('Six glasses so far.');
  expect(result.reasoning).toBe('The water card holds six glasses.');
  expect(r.reasoning.join('')).toBe('The water card holds six glasses.');
});
