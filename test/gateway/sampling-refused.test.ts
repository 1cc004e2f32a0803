// OpenAI's reasoning models (o1, o3, o4-mini, gpt-5) take only their own sampling: a request with
// `temperature: 0` is refused with 400 "Unsupported value: 'temperature' does not support 0 with
// this model. Only the default (1) value is supported." (code unsupported_value, param
// temperature), or "Unsupported parameter: 'temperature' is not supported with this model.", and
// `max_tokens` with "Use 'max_completion_tokens' instead". Klebb asks with temperature 0 when it
// reads a report, so every report failed to be understood with such a model.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const openAiRefusal = (message: string, param: string, code: string): ScriptStep => ({
  kind: 'error',
  status: 400,
  body: { error: { message, type: 'invalid_request_error', param, code } },
});

const reportAsk = { messages: userSays('Summarise this report.'), stream: false, temperature: 0 };

for (const [what, refusal] of [
  [
    'a value other than the default',
    openAiRefusal(
      "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
      'temperature',
      'unsupported_value',
    ),
  ],
  [
    'the parameter at all',
    openAiRefusal(
      "Unsupported parameter: 'temperature' is not supported with this model.",
      'temperature',
      'unsupported_parameter',
    ),
  ],
] as const) {
  it(`a model refusing temperature (${what}) is asked again without it, and that is remembered`, async () => {
    gw.script(refusal, { kind: 'reply', text: 'A summary.' }, { kind: 'reply', text: 'Another.' });
    const cfg = configFor(gw.url);
    expect((await callGateway(cfg, reportAsk)).text).toBe('A summary.');
    expect(gw.requests[0].body.temperature).toBe(0);
    expect(gw.requests[1].body).not.toHaveProperty('temperature');
    // the next request to the same endpoint and model goes without it at once
    expect((await callGateway(cfg, reportAsk)).text).toBe('Another.');
    expect(gw.requests[2].body).not.toHaveProperty('temperature');
    expect(gw.requests).toHaveLength(3);
  });
}

it('max_tokens refused for max_completion_tokens: the cap is sent under the name the model takes', async () => {
  gw.script(
    openAiRefusal(
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      'max_tokens',
      'unsupported_parameter',
    ),
    { kind: 'reply', text: 'Short title' },
  );
  const result = await callGateway(configFor(gw.url), {
    messages: userSays('title?'),
    stream: false,
    maxTokens: 20,
  });
  expect(result.text).toBe('Short title');
  expect(gw.requests[1].body).not.toHaveProperty('max_tokens');
  expect(gw.requests[1].body.max_completion_tokens).toBe(20);
});

it('a refusal of something else is not taken for one of temperature', async () => {
  gw.script(
    openAiRefusal(
      "Invalid 'messages[0].content': string too long.",
      'messages[0].content',
      'string_above_max_length',
    ),
    { kind: 'reply', text: 'never' },
  );
  await gatewayFailure(callGateway(configFor(gw.url), reportAsk));
  expect(gw.requests).toHaveLength(1);
});

it('a chat request without a temperature is not changed', async () => {
  gw.script({ kind: 'reply', text: 'hi' });
  await callGateway(configFor(gw.url), { messages: userSays('hi'), stream: true });
  expect(gw.requests[0].body).not.toHaveProperty('temperature');
  expect(gw.requests[0].body).not.toHaveProperty('max_completion_tokens');
});
