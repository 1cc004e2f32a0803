// an HTTP 200 event stream whose only event is a bare error object, then EOF (HF TGI).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, userSays } from '../../gateway/support.js';
import { type ScriptedGateway, startScriptedGateway } from '../../helpers/scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

it('a bare error event ends the stream as a non-retryable validation failure', async () => {
  gw.script({ kind: 'raw', caseId: 'G08' });
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 }), {
      messages: userSays('x'),
      stream: true,
    }),
  );
  expect(err).toMatchObject({
    kind: 'failed',
    reason: 'validation',
    retryable: false,
    providerType: 'validation',
  });
  expect(err.message).toContain('Input validation error: `top_p` must be > 0.0 and < 1.0');
  expect(gw.requests).toHaveLength(1);
});

it('does not wait for [DONE] or EOF after an error event (never hangs)', async () => {
  gw.script({
    kind: 'bytes',
    end: 'hold', // the connection stays open and silent
    chunks: [
      'data: {"error":"Input validation error: `top_p` must be > 0.0 and < 1.0","error_type":"validation"}\n\n',
    ],
  });
  const t0 = Date.now();
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }));
  expect(err.reason).toBe('validation');
  expect(Date.now() - t0).toBeLessThan(2000);
});
