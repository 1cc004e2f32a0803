// OpenRouter routes a request only to providers that support everything it asks for. When no
// provider of the model takes tools, it answers 404 "No endpoints found that support tool use"
// (or, for the tool choice alone, "... that support the provided 'tool_choice' value"). That was
// read as an unknown model or address, and every message failed telling the person to check
// CHAT_MODEL, though the model exists and answers in words. The request is asked again without
// what no endpoint supports, as for a server that refuses tools in its own words.
import { expect, it } from 'vitest';
import { agentTurn } from './agent-turn.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const noEndpoints = (what: string) => ({
  kind: 'error' as const,
  status: 404,
  body: {
    error: {
      message: `No endpoints found that support ${what}. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing`,
      code: 404,
    },
  },
});

it('no endpoint supports tool use: the model is asked again without tools and answers', async () => {
  gw.script(noEndpoints('tool use'), { kind: 'reply', text: 'Your last weight was 71 kg.' });
  const { result } = await agentTurn(gw, { stream: true, tools: ['read_rows'] });
  expect(result.payload?.reply).toBe('Your last weight was 71 kg.');
  expect(gw.requests).toHaveLength(2);
  expect(gw.requests[0].body.tools).toHaveLength(1);
  expect(gw.requests[1].body).not.toHaveProperty('tools');
  expect(gw.requests[1].body).not.toHaveProperty('tool_choice');
});

it('no endpoint supports the tool choice: asked again without tool_choice, the tools still offered', async () => {
  gw.script(noEndpoints("the provided 'tool_choice' value"), { kind: 'reply', text: 'Done.' });
  const { result } = await agentTurn(gw, { stream: false, tools: ['read_rows'] });
  expect(result.payload?.reply).toBe('Done.');
  expect(gw.requests[0].body.tool_choice).toBe('auto');
  expect(gw.requests[1].body).not.toHaveProperty('tool_choice');
  expect(gw.requests[1].body.tools).toHaveLength(1);
});

it('a model OpenRouter does not know is still told as an unknown model (guards what worked)', async () => {
  gw.script({
    kind: 'error',
    status: 404,
    body: { error: { message: 'No endpoints found for acme/nonexistent-model.', code: 404 } },
  });
  const { result } = await agentTurn(gw, { stream: true, tools: ['read_rows'] });
  expect(result.error).toMatch(/does not know this model/);
  expect(gw.requests).toHaveLength(1);
});
