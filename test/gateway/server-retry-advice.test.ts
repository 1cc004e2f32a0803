// A server can say in a header whether a failed request is worth sending again:
// `x-should-retry: true` or `false` (OpenAI's and Anthropic's APIs, and proxies that do their own
// retrying, which answer `false` once theirs are spent). Klebb decided by the status alone, so it
// sent again what the server had said was pointless (a proxy's overload after its own retries,
// doubling the wait and the load) and gave up on what it had said to retry (a 409 from a request
// that lost a lock race).
import { expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();
const retrying = () => configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 });
const ask = { messages: userSays('hi'), stream: true };

const failing = (status: number, advice: string, message: string, type: string): ScriptStep => ({
  kind: 'error',
  status,
  headers: { 'x-should-retry': advice },
  body: { error: { message, type } },
});

for (const [status, type, message] of [
  [503, 'overloaded_error', 'Overloaded'],
  [500, 'api_error', 'Upstream failed after 3 attempts'],
  [429, 'rate_limit_error', 'Rate limited by the upstream; retries exhausted'],
] as const) {
  it(`a ${status} the server says not to retry (x-should-retry: false) is not sent again`, async () => {
    gw.script(failing(status, 'false', message, type), { kind: 'reply', text: 'late' });
    const err = await gatewayFailure(callGateway(retrying(), ask));
    expect(gw.requests).toHaveLength(1);
    expect(err.retryable).toBe(false);
    expect(err.upstreamStatus).toBe(status);
    // still told as what it is
    expect(failureCopy(err).error).toMatch(status === 429 ? /busy right now/ : /unavailable right now/);
  });
}

it('a 409 the server says to retry (x-should-retry: true) is sent again and answered', async () => {
  gw.script(failing(409, 'true', 'The request conflicted with another one; please retry', 'conflict'), {
    kind: 'reply',
    text: 'Second time lucky.',
  });
  const result = await callGateway(retrying(), ask);
  expect(result.text).toBe('Second time lucky.');
  expect(gw.requests).toHaveLength(2);
});

it('the advice is read in any letter case; a value that is neither true nor false changes nothing', async () => {
  gw.script(failing(503, 'FALSE', 'Overloaded', 'overloaded_error'));
  await gatewayFailure(callGateway(retrying(), ask));
  expect(gw.requests).toHaveLength(1);
  gw.script(failing(503, 'maybe', 'Overloaded', 'overloaded_error'), { kind: 'reply', text: 'ok' });
  expect((await callGateway(retrying(), ask)).text).toBe('ok');
});

it('with retries turned off, a server saying to retry is not asked again', async () => {
  gw.script(failing(409, 'true', 'conflict, please retry', 'conflict'), { kind: 'reply', text: 'no' });
  await gatewayFailure(callGateway(configFor(gw.url), ask));
  expect(gw.requests).toHaveLength(1);
});
