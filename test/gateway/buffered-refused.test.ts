// Qwen3 thinking models on DashScope, ModelScope and SiliconFlow answer only streamed: a request
// without `stream: true` is refused with 400 "parameter.enable_thinking must be set to false for
// non-streaming calls" (in Chinese on some endpoints: "…必须设置为false才能进行非流式调用";
// ModelScope: "enable thinking can not be support when `stream=False`"). Klebb asks unstreamed for
// chat requests that did not ask to stream and for its side calls (conversation titles, report
// reading), so each of them failed. Such a request is sent again streamed, and that is remembered;
// the reply is assembled as a whole answer, and the call's time limit still applies.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { RecordedRequest, ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, recordHooks, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const refusal = (message: string): ScriptStep => ({
  kind: 'error',
  status: 400,
  body: { error: { code: 'invalid_parameter_error', param: null, message, type: 'invalid_request_error' } },
});
const onlyStreamed =
  (message: string, answer: ScriptStep = { kind: 'reply', text: 'Water intake this week' }) =>
  (q: RecordedRequest): ScriptStep =>
    q.body.stream === true ? answer : refusal(message);

for (const [who, message] of [
  ['DashScope', 'parameter.enable_thinking must be set to false for non-streaming calls'],
  ['DashScope in Chinese', 'parameter.enable_thinking必须设置为false才能进行非流式调用'],
  ['ModelScope', 'enable thinking can not be support when `stream=False`.'],
] as const) {
  it(`${who}: an unstreamed request is sent again streamed, and that is remembered`, async () => {
    gw.script(
      { kind: 'decide', choose: onlyStreamed(message) },
      { kind: 'decide', choose: onlyStreamed(message) },
      { kind: 'decide', choose: onlyStreamed(message) },
    );
    const cfg = configFor(gw.url);
    const result = await callGateway(cfg, { messages: userSays('title?'), maxTokens: 20 });
    expect(result.text).toBe('Water intake this week');
    expect(gw.requests).toHaveLength(2);
    expect(gw.requests[1].body.stream).toBe(true);
    await callGateway(cfg, { messages: userSays('title?') });
    expect(gw.requests).toHaveLength(3);
  });
}

it('a streamed answer that stalls is still cut off by the call time limit', async () => {
  const message = 'parameter.enable_thinking must be set to false for non-streaming calls';
  gw.script(
    { kind: 'decide', choose: onlyStreamed(message) },
    { kind: 'decide', choose: onlyStreamed(message, { kind: 'stall', afterText: 'Water' }) },
  );
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { callTimeoutMs: 300 }), { messages: userSays('title?') }),
  );
  expect(err.kind).toBe('timeout');
});

it('the stream of an unstreamed request shows nothing, so a stream cut half-way is asked again', async () => {
  const message = 'parameter.enable_thinking must be set to false for non-streaming calls';
  gw.script(
    { kind: 'decide', choose: onlyStreamed(message) },
    { kind: 'decide', choose: onlyStreamed(message, { kind: 'drop', afterText: 'Water intake' }) },
    { kind: 'decide', choose: onlyStreamed(message) },
  );
  const r = recordHooks();
  const cfg = configFor(gw.url, { maxRetries: 1, retryBaseDelayMs: 1 });
  const result = await callGateway(cfg, { messages: userSays('title?') }, r.hooks);
  expect(result.text).toBe('Water intake this week');
  expect(r.tokens).toEqual([]);
  expect(gw.requests).toHaveLength(3);
});
