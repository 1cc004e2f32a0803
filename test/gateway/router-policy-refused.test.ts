// OpenRouter routes only to providers that the account's privacy and guardrail settings allow.
// When none of the model's providers is allowed, it answers 404: "No endpoints found matching your
// data policy (Paid model training). Configure: https://openrouter.ai/settings/privacy", newer "No
// endpoints available matching your guardrail restrictions and data policy", or, with a provider
// allow-list, "No allowed providers are available for the selected model". As a 404 this was told
// as a model or address the endpoint does not know (check CHAT_MODEL), though the model exists and
// the fix is in the router's settings. It is now told as that, and never asked again.
import { expect, it } from 'vitest';
import { agentTurn } from './agent-turn.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

for (const message of [
  'No endpoints found matching your data policy (Paid model training). Configure: https://openrouter.ai/settings/privacy',
  'No endpoints found matching your data policy. Check your settings: https://openrouter.ai/settings/privacy',
  'openrouter error: No endpoints available matching your guardrail restrictions and data policy. Configure: https://openrouter.ai/settings/privacy',
  'No allowed providers are available for the selected model.',
]) {
  it(`"${message.slice(0, 60)}…": the router's settings, not the model's name`, async () => {
    const refusal = { kind: 'error' as const, status: 404, body: { error: { message, code: 404 } } };
    gw.script(refusal, refusal, refusal);
    const { result } = await agentTurn(gw, {
      stream: true,
      tools: ['read_rows'],
      gateway: { maxRetries: 2, retryBaseDelayMs: 1 },
    });
    expect(gw.requests).toHaveLength(1);
    expect(result.error).toMatch(/privacy|allowed providers|settings/);
    expect(result.error).toMatch(/router|OpenRouter/);
    expect(result.error).not.toMatch(/does not know this model/);
  });
}
