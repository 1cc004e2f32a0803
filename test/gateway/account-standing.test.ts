// The account behind the key cannot be used until a person acts: OpenAI answers 429
// billing_not_active ("Your account is not active, please check your billing details") and 400
// billing_hard_limit_reached; Anthropic answers 400 "This organization has been disabled." Read as a
// rate limit, the first was asked three times and told as "busy, try again in a minute"; the others
// as "could not answer this time, please try again". No wait helps: billing is a spent allowance,
// never asked again, and a disabled account is a key to change.
import { expect, it } from 'vitest';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { agentTurn } from './agent-turn.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const cases: Array<{ name: string; step: ScriptStep; says: RegExp }> = [
  {
    name: "OpenAI's 429 billing_not_active",
    step: {
      kind: 'error',
      status: 429,
      body: {
        error: {
          message: 'Your account is not active, please check your billing details on our website.',
          type: 'billing_not_active',
          param: null,
          code: 'billing_not_active',
        },
      },
    },
    says: /allowance for this model is used up/,
  },
  {
    name: "OpenAI's 400 billing_hard_limit_reached",
    step: {
      kind: 'error',
      status: 400,
      body: {
        error: {
          message: 'Billing hard limit has been reached',
          type: 'invalid_request_error',
          param: null,
          code: 'billing_hard_limit_reached',
        },
      },
    },
    says: /allowance for this model is used up/,
  },
  {
    name: "Anthropic's 400 for a disabled organization",
    step: {
      kind: 'error',
      status: 400,
      body: {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'This organization has been disabled.' },
      },
    },
    says: /refused the API key \(.*This organization has been disabled/,
  },
];

for (const { name, step, says } of cases) {
  it(`${name}: said as what it is, not asked again`, async () => {
    gw.script(step, step, step);
    const { result } = await agentTurn(gw, { stream: true, gateway: { maxRetries: 2, retryBaseDelayMs: 1 } });
    expect(gw.requests).toHaveLength(1);
    expect(result.error).toMatch(says);
    expect(result.error).not.toMatch(/busy right now|could not answer this time/);
  });
}

it('a plain rate limit is still waited out and asked again', async () => {
  gw.script(
    {
      kind: 'error',
      status: 429,
      headers: { 'retry-after': '0' },
      body: {
        error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' },
      },
    },
    { kind: 'reply', text: 'Your resting heart rate: 58.' },
  );
  const { result } = await agentTurn(gw, { stream: true, gateway: { maxRetries: 2, retryBaseDelayMs: 1 } });
  expect(gw.requests).toHaveLength(2);
  expect(result.error).toBeUndefined();
});
