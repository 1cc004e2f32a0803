// one-api, new-api and the resellers built on them answer 503 (code model_not_found) when no
// channel of theirs serves the requested model for the key's group: "No available channel for
// model gpt-5.1 under group default (distributor)", in Chinese "当前分组 default 下对于模型 gpt-5.1
// 无可用渠道". Klebb read the 503 as a momentary failure: asked twice more and then said the chat
// service was unavailable and to try again later, which fails the same way until the model name or
// the relay's channels change. It is now told as that, pointing at CHAT_MODEL and the relay's
// settings, and not asked again.
import { expect, it } from 'vitest';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { agentTurn } from './agent-turn.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const refusals: Array<{ name: string; step: ScriptStep }> = [
  {
    name: "new-api's English 503",
    step: {
      kind: 'error',
      status: 503,
      body: {
        error: {
          code: 'model_not_found',
          message:
            'No available channel for model gpt-5.1 under group default (distributor) (request id: 2026120711)',
          type: 'new_api_error',
        },
      },
    },
  },
  {
    name: "one-api's Chinese 503",
    step: {
      kind: 'error',
      status: 503,
      body: {
        error: {
          message: '当前分组 default 下对于模型 gpt-5.1 无可用渠道 (request id: 2026120711)',
          type: 'new_api_error',
          param: '',
          code: 'model_not_found',
        },
      },
    },
  },
];

for (const { name, step } of refusals) {
  for (const stream of [true, false]) {
    it(`${name} (${stream ? 'streamed' : 'whole'}): told as the relay's missing channel, not asked again`, async () => {
      gw.script(step, step, step);
      const { result } = await agentTurn(gw, { stream, gateway: { maxRetries: 2, retryBaseDelayMs: 1 } });
      expect(gw.requests).toHaveLength(1);
      expect(result.error).toMatch(/has no channel that serves this model/);
      expect(result.error).toMatch(/CHAT_MODEL/);
      expect(result.error).not.toMatch(/unavailable right now/);
    });
  }
}

it('a relay whose upstream is down (503 without such words) is still asked again', async () => {
  gw.script(
    {
      kind: 'error',
      status: 503,
      body: {
        error: {
          message: 'upstream error: do request failed',
          type: 'new_api_error',
          code: 'do_request_failed',
        },
      },
    },
    { kind: 'reply', text: 'You slept 7 hours last night.' },
  );
  const { result } = await agentTurn(gw, { stream: true, gateway: { maxRetries: 2, retryBaseDelayMs: 1 } });
  expect(gw.requests).toHaveLength(2);
  expect(result.error).toBeUndefined();
});
