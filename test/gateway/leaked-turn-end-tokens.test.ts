// A server whose stop tokens are not set up for the model (LM Studio, Ollama with a custom
// Modelfile, MLX and llama.cpp servers, vLLM with a mismatched template) leaves the model's
// end-of-turn token in the answer text: "Hello! How can I help you today?<|im_end|>" (Qwen,
// ChatML), <|eot_id|> (Llama 3), </s> (Mistral), <end_of_turn> (Gemma), <｜end▁of▁sentence｜>
// (DeepSeek), and often goes on to write the next turn itself ("<|im_start|>user ..."). The
// person saw the token, or an invented turn of their own, in the reply and in the transcript.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { agentTurn } from './agent-turn.js';
import { configFor, recordHooks, userSays } from './support.js';
import { choiceEvent, completionStep, DONE, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();

const answer = (content: string) =>
  completionStep({ message: { role: 'assistant', content }, finish_reason: 'stop' });
const textOf = async (content: string) => {
  gw.script(answer(content));
  return (await callGateway(configFor(gw.url), { messages: userSays('hi'), stream: false })).text;
};

for (const token of [
  '<|im_end|>',
  '<|eot_id|>',
  '</s>',
  '<end_of_turn>',
  '<eos>',
  '<|endoftext|>',
  '<|end|>',
  '<｜end▁of▁sentence｜>',
  '<|END_OF_TURN_TOKEN|>',
]) {
  it(`${token} at the end of the answer is not part of it`, async () => {
    expect(await textOf(`Hello! How can I help you today?${token}`)).toBe('Hello! How can I help you today?');
  });
}

it('the next turn the model went on to write after its end token is not part of the answer either', async () => {
  const turn =
    '1.5 l of water today.<|im_end|>\n<|im_start|>user\nthanks<|im_end|>\n<|im_start|>assistant\nAnytime!';
  expect(await textOf(turn)).toBe('1.5 l of water today.');
  expect(await textOf('Done.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nok')).toBe('Done.');
  expect(await textOf('Done.\n<start_of_turn>user\nok')).toBe('Done.');
});

it('a stream never shows the token, however the pieces cut it', async () => {
  const rec = recordHooks();
  gw.script(
    sseStep(
      ...['Hello', ' there.<|im', '_', 'end|>', '\n<|im_start|>us', 'er\nmore'].map((t) =>
        choiceEvent({ delta: { content: t } }),
      ),
      choiceEvent({ delta: {}, finish_reason: 'stop' }),
      DONE,
    ),
  );
  const result = await callGateway(configFor(gw.url), { messages: userSays('hi'), stream: true }, rec.hooks);
  expect(result.text).toBe('Hello there.');
  expect(rec.tokens.join('')).toBe('Hello there.');
});

it('through the agent loop, the reply the person reads and keeps is clean', async () => {
  gw.script(answer('Your step count is 8 200.<|eot_id|>'));
  const turn = await agentTurn(gw, { stream: true });
  expect(turn.result.payload?.reply).toBe('Your step count is 8 200.');
  const tokens = turn.events.filter((e) => e.type === 'token').map((e) => (e.data as { text: string }).text);
  expect(tokens.join('')).toBe('Your step count is 8 200.');
});

for (const [what, content] of [
  ['a token quoted in a code span', 'Qwen ends each turn with `<|im_end|>`, Llama with `<|eot_id|>`.'],
  ['HTML strikethrough', 'Price: <s>10 €</s> 8 €'],
  ['a token in the middle of prose that goes on', 'The </s> token marks the end of a sequence.'],
] as const) {
  it(`${what} stays in the answer as written`, async () => {
    expect(await textOf(content)).toBe(content);
    gw.script(
      sseStep(
        ...[content.slice(0, 9), content.slice(9, 20), content.slice(20)].map((t) =>
          choiceEvent({ delta: { content: t } }),
        ),
        choiceEvent({ delta: {}, finish_reason: 'stop' }),
        DONE,
      ),
    );
    const rec = recordHooks();
    const result = await callGateway(
      configFor(gw.url),
      { messages: userSays('hi'), stream: true },
      rec.hooks,
    );
    expect(result.text).toBe(content);
    expect(rec.tokens.join('')).toBe(content);
  });
}
