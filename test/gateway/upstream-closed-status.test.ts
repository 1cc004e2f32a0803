// 499 ("client closed request", nginx's own status) reaches Klebb from a gateway or relay whose
// hop to the model was closed before the answer came: its upstream timed out, a load balancer
// dropped it (Gemini behind proxies, relays in front of OpenAI). Nothing was wrong with the
// request, and the same request answers a moment later, but as a 4xx it was final: not asked
// again, and told as "The model could not answer this time (gateway HTTP 499)".
import { expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const closed = [
  ['an empty body', ''],
  ['a JSON error', { error: { message: 'Client Closed Request', code: 499 } }],
  [
    'nginx page',
    '<html><head><title>499</title></head><body><center><h1>499 Client Closed Request</h1></center><hr><center>nginx</center></body></html>',
  ],
] as const;

for (const [what, body] of closed) {
  it(`a 499 with ${what} is asked again, and the answer that follows is the reply`, async () => {
    gw.script({ kind: 'error', status: 499, body }, { kind: 'reply', text: 'Second time.' });
    const result = await callGateway(configFor(gw.url, { maxRetries: 1, retryBaseDelayMs: 1 }), {
      messages: userSays('hi'),
      stream: true,
    });
    expect(result.text).toBe('Second time.');
    expect(gw.requests).toHaveLength(2);
  });
}

it('a 499 that persists is told as the service unavailable for now, not as a refused request', async () => {
  gw.script({ kind: 'error', status: 499, body: '' });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('hi') }));
  expect(err.retryable).toBe(true);
  expect(failureCopy(err).error).toMatch(/unavailable right now/);
});
