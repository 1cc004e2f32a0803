// OpenAI refuses to stream some models to an organization it has not verified (o3, gpt-5: 400
// "Your organization must be verified to stream this model", param `stream`, also relayed by
// OpenRouter), and older reasoning models refused streaming outright ("Unsupported value: 'stream'
// does not support true with this model"). Klebb streams every turn, so no turn could answer. The
// request is then sent unstreamed (the answer arrives whole), remembered per endpoint and model,
// and the step's time limit covers the whole call instead of the silence between pieces.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { RecordedRequest, ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const refusal = (message: string) => ({
  kind: 'error' as const,
  status: 400,
  body: { error: { message, type: 'invalid_request_error', param: 'stream', code: 'unsupported_value' } },
});
const VERIFY =
  'Your organization must be verified to stream this model. Please go to: https://platform.openai.com/settings/organization/general and click on Verify Organization. If you just verified, it can take up to 15 minutes for access to propagate.';
const O1 =
  "Unsupported value: 'stream' does not support true with this model. Only the default (false) value is supported.";

const noStreaming =
  (message: string, answer: ScriptStep = { kind: 'reply', text: 'Six glasses.' }) =>
  (q: RecordedRequest): ScriptStep =>
    q.body.stream === true ? refusal(message) : answer;

for (const [who, message] of [
  ['an unverified organization', VERIFY],
  ['a model that never streams', O1],
] as const) {
  it(`${who}: asked again unstreamed, and remembered`, async () => {
    gw.script(
      { kind: 'decide', choose: noStreaming(message) },
      { kind: 'decide', choose: noStreaming(message) },
      { kind: 'decide', choose: noStreaming(message) },
    );
    const cfg = configFor(gw.url);
    expect((await callGateway(cfg, { messages: userSays('water?'), stream: true })).text).toBe(
      'Six glasses.',
    );
    expect(gw.requests).toHaveLength(2);
    expect(gw.requests[1].body.stream).toBe(false);
    expect(gw.requests[1].body.stream_options).toBeUndefined();
    await callGateway(cfg, { messages: userSays('water?'), stream: true });
    expect(gw.requests).toHaveLength(3);
  });
}

it('the same refusal relayed by OpenRouter inside its provider error is repaired too', async () => {
  const relayed = {
    kind: 'error' as const,
    status: 400,
    body: {
      error: {
        message: 'Provider returned error',
        code: 400,
        metadata: { raw: JSON.stringify(refusal(VERIFY).body), provider_name: 'OpenAI' },
      },
    },
  };
  gw.script(
    { kind: 'decide', choose: (q) => (q.body.stream ? relayed : { kind: 'reply', text: 'Six glasses.' }) },
    {
      kind: 'decide',
      choose: (q) => (q.body.stream ? relayed : { kind: 'reply', text: 'Six glasses.' }),
    },
  );
  expect((await callGateway(configFor(gw.url), { messages: userSays('water?'), stream: true })).text).toBe(
    'Six glasses.',
  );
});

it('an unstreamed answer that never comes is cut off by the step time, not waited for forever', async () => {
  gw.script(
    { kind: 'decide', choose: noStreaming(VERIFY) },
    { kind: 'decide', choose: noStreaming(VERIFY, { kind: 'stall' }) },
  );
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { idleTimeoutMs: 300 }), { messages: userSays('water?'), stream: true }),
  );
  expect(err.kind).toBe('timeout');
});

// neighbouring refusals that are not of streaming: the stream must stay, now and later
for (const [what, status, message] of [
  ['stream_options refused', 400, 'This model does not support stream_options'],
  ['an upstream outage', 503, 'upstream is not available'],
] as const) {
  it(`${what} does not turn streaming off`, async () => {
    const answer = { kind: 'reply' as const, text: 'Six glasses.' };
    gw.script({ kind: 'error', status, body: { error: { message } } }, answer, answer);
    const cfg = configFor(gw.url, { maxRetries: 1, retryBaseDelayMs: 1 });
    await callGateway(cfg, { messages: userSays('water?'), stream: true });
    await callGateway(cfg, { messages: userSays('water?'), stream: true });
    expect(gw.requests.map((q) => q.body.stream)).toEqual([true, true, true]);
    if (status === 400) expect(gw.requests[2].body.stream_options).toBeUndefined();
  });
}
