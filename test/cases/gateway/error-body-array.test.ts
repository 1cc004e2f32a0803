// 400 for a role:tool message without name; the error body is a JSON array (Gemini).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, userSays } from '../../gateway/support.js';
import { type ScriptedGateway, startScriptedGateway } from '../../helpers/scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

it('decodes the array-wrapped error and classifies it as a non-retryable request error', async () => {
  gw.script({ kind: 'raw', caseId: 'G13' });
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 }), { messages: userSays('x') }),
  );
  expect(err).toMatchObject({
    kind: 'failed',
    reason: 'invalid_request',
    retryable: false,
    upstreamStatus: 400,
    providerCode: 400,
    providerType: 'INVALID_ARGUMENT',
  });
  expect(err.message).toContain('function_response.name: Name cannot be empty.');
  expect(gw.requests).toHaveLength(1);
});

it('every role:tool message is sent with the name of its assistant call', async () => {
  gw.script({ kind: 'reply', text: 'ok' });
  await callGateway(configFor(gw.url), {
    messages: [
      ...userSays('weather'),
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
    ],
  });
  const sent = gw.requests[0].body.messages;
  expect(sent[2]).toEqual({
    role: 'tool',
    tool_call_id: sent[1].tool_calls[0].id,
    name: 'get_weather',
    content: 'sunny',
  });
});
