// HTTP 429 with retry-after and a 'try again in 5.289s' message (Groq).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, recordHooks, userSays } from '../../gateway/support.js';
import { type ScriptedGateway, startScriptedGateway } from '../../helpers/scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

it('a 429 is rate_limited with the longest of retry-after and "try again in"', async () => {
  gw.script({ kind: 'raw', caseId: 'G23' });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x') }));
  expect(err).toMatchObject({
    kind: 'rate_limited',
    upstreamStatus: 429,
    retryable: true,
    retryAfterMs: 6000,
    providerType: 'tokens',
    providerCode: 'rate_limit_exceeded',
  });
});

it('fails fast with "retry in ~6 s" when the wait does not fit the turn deadline', async () => {
  gw.script({ kind: 'raw', caseId: 'G23' });
  const rec = recordHooks();
  const t0 = Date.now();
  const err = await gatewayFailure(
    callGateway(
      configFor(gw.url, { maxRetries: 3, deadlineAtMs: Date.now() + 2000 }),
      { messages: userSays('x') },
      rec.hooks,
    ),
  );
  expect(Date.now() - t0).toBeLessThan(1000);
  expect(err.kind).toBe('rate_limited');
  expect(err.message).toMatch(/^rate limited, retry in ~6 s/);
  expect(rec.retries).toHaveLength(0);
  expect(gw.requests).toHaveLength(1);
});

it('waits the requested time (retry-after-ms) then succeeds, announcing the wait', async () => {
  gw.script(
    {
      kind: 'error',
      status: 429,
      headers: { 'retry-after-ms': '150' },
      body: { error: { message: 'Rate limit reached' } },
    },
    { kind: 'reply', text: 'After the wait.' },
  );
  const rec = recordHooks();
  const t0 = Date.now();
  const result = await callGateway(
    configFor(gw.url, { maxRetries: 1 }),
    { messages: userSays('x') },
    rec.hooks,
  );
  expect(result.text).toBe('After the wait.');
  expect(Date.now() - t0).toBeGreaterThanOrEqual(150);
  expect(rec.retries[0].waitMs).toBeGreaterThanOrEqual(150);
});

it('Requested > Limit is reported as too large and never retried', async () => {
  gw.script({
    kind: 'error',
    status: 429,
    headers: { 'retry-after': '1' },
    body: {
      error: {
        message:
          'Rate limit reached for model `m` on tokens per minute (TPM): Limit 6000, Used 0, Requested 9120. Please try again in 1.2s.',
        type: 'tokens',
        code: 'rate_limit_exceeded',
      },
    },
  });
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { maxRetries: 3 }), { messages: userSays('x') }),
  );
  expect(err).toMatchObject({
    kind: 'failed',
    reason: 'request_too_large',
    retryable: false,
    upstreamStatus: 429,
  });
  expect(err.message).toMatch(/9120 > 6000/);
  expect(gw.requests).toHaveLength(1);
});
