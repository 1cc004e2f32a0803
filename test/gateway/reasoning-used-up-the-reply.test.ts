// A reasoning model's thinking counts against its output limit. A long think can use all of it
// (Qwen3 and DeepSeek-R1 through vLLM or Ollama, Kimi, GLM, Gemini's thinking models): the reply
// ends with finish reason "length", reasoning and no answer. Likewise a provider can stop at its
// length limit before writing anything (Gemini's MAX_TOKENS with no parts). The person read "No
// answer came back ... please try again", which fails the same way again; they are now told what
// happened and what helps: asking for less at a time, or a larger output limit where the model runs.
import { expect, it } from 'vitest';
import { agentTurn } from './agent-turn.js';
import { choiceEvent, completionStep, DONE, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();
const retrying = { maxRetries: 2, retryBaseDelayMs: 1 };

it('a stream of reasoning that stops at the length limit: said as reasoning that used up the reply', async () => {
  gw.script(
    sseStep(
      choiceEvent({ delta: { reasoning_content: 'First, list every card. Then for each card, ' } }),
      choiceEvent({ delta: { reasoning_content: 'compare the weekly totals …' }, finish_reason: 'length' }),
      DONE,
    ),
  );
  const { result } = await agentTurn(gw, { stream: true, gateway: retrying });
  expect(result.status).toBe(200);
  expect(result.payload?.reply).toMatch(/reasoning/);
  expect(result.payload?.reply).toMatch(/length limit/);
  expect(result.payload?.reply).toMatch(/output limit/);
  expect(result.payload?.reply).not.toContain('compare the weekly');
  // the same request would stop at the same place: not asked again
  expect(gw.requests).toHaveLength(1);
});

it('a think block left open in the text at the length limit is the same', async () => {
  gw.script(
    sseStep(
      choiceEvent({ delta: { content: '<think>The person asks about sleep. ' } }),
      choiceEvent({ delta: { content: 'Let me weigh every night …' }, finish_reason: 'length' }),
      DONE,
    ),
  );
  const { result } = await agentTurn(gw, { stream: true });
  expect(result.payload?.reply).toMatch(/reasoning.*length limit/);
});

it('a JSON reply with reasoning and content null at max_tokens (another spelling) is the same', async () => {
  gw.script(
    completionStep({
      message: { role: 'assistant', content: null, reasoning: 'Thinking about the water card at length …' },
      finish_reason: 'MAX_TOKENS',
    }),
  );
  const { result } = await agentTurn(gw, { stream: false });
  expect(result.payload?.reply).toMatch(/reasoning.*length limit/);
});

it('nothing at all before the length limit: said as the limit reached before any answer', async () => {
  gw.script(completionStep({ message: { role: 'assistant', content: '' }, finish_reason: 'length' }));
  const { result } = await agentTurn(gw, { stream: false, gateway: retrying });
  expect(result.payload?.reply).toMatch(/length limit before/);
  expect(result.payload?.reply).not.toMatch(/No answer came back/);
  expect(gw.requests).toHaveLength(1);
});
