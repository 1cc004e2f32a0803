// HTTP 502 with a Cloudflare HTML error page instead of JSON.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, recordHooks, userSays } from '../../gateway/support.js';
import { type ScriptedGateway, startScriptedGateway } from '../../helpers/scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

it('a non-JSON 5xx is a retryable unavailable error with the <title>, never raw HTML', async () => {
  gw.script({ kind: 'raw', caseId: 'G22' });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }));
  expect(err).toMatchObject({ kind: 'unavailable', reason: 'html', upstreamStatus: 502, retryable: true });
  expect(err.message).toBe('gateway HTTP 502: 502: Bad gateway');
  expect(err.message).not.toMatch(/[<>]/);
});

it('retried with backoff inside the retry budget', async () => {
  gw.script({ kind: 'raw', caseId: 'G22' }, { kind: 'reply', text: 'Back up.' });
  const rec = recordHooks();
  const result = await callGateway(
    configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 20 }),
    { messages: userSays('x'), stream: true },
    rec.hooks,
  );
  expect(result.text).toBe('Back up.');
  expect(rec.retries).toHaveLength(1);
  expect(rec.retries[0].attempt).toBe(1);
  expect(rec.retries[0].waitMs).toBeGreaterThanOrEqual(20);
  expect(gw.requests).toHaveLength(2);
});

it('an HTML 4xx from a relay (wrong path) is a failed request, also without HTML', async () => {
  gw.script({
    kind: 'error',
    status: 404,
    headers: { 'Content-Type': 'text/html' },
    body: '<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>',
  });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x') }));
  expect(err).toMatchObject({ kind: 'failed', reason: 'not_found', upstreamStatus: 404 });
  expect(err.message).toBe('gateway HTTP 404: 404 Not Found');
});
