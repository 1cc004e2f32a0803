// Idle timeout when streaming (seed "Streaming": reset by every byte), whole-call timeout when buffered.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

it('the idle timeout fires on a stream that stalls after some text, keeping the partial text', async () => {
  gw.script({ kind: 'stall', afterText: 'Starting to' });
  const t0 = Date.now();
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { idleTimeoutMs: 300, maxRetries: 2 }), {
      messages: userSays('x'),
      stream: true,
    }),
  );
  expect(err).toMatchObject({
    kind: 'timeout',
    reason: 'idle_timeout',
    partialText: 'Starting to',
    retryable: false,
  });
  expect(Date.now() - t0).toBeGreaterThanOrEqual(280);
  expect(Date.now() - t0).toBeLessThan(1500);
  expect(gw.requests).toHaveLength(1);
});

it('the idle timeout also covers the wait for the response headers', async () => {
  gw.script({ kind: 'reply', text: 'late', headersDelayMs: 1000 });
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { idleTimeoutMs: 200 }), { messages: userSays('x'), stream: true }),
  );
  expect(err).toMatchObject({ kind: 'timeout', reason: 'idle_timeout', status: 504 });
});

it('the idle timeout does NOT fire on a slow but steady stream longer than the timeout', async () => {
  const words = Array.from({ length: 10 }, (_, i) => `w${i} `);
  gw.script({ kind: 'reply', chunks: words, chunkDelayMs: 100 });
  const rec = recordHooks();
  const t0 = Date.now();
  const result = await callGateway(
    configFor(gw.url, { idleTimeoutMs: 300 }),
    { messages: userSays('x'), stream: true },
    rec.hooks,
  );
  expect(Date.now() - t0).toBeGreaterThan(900); // three times the idle timeout
  expect(result.text).toBe(words.join(''));
  expect(rec.tokens).toEqual(words);
});

it('the whole-call timeout fires on a slow buffered reply; the idle timeout is not used there', async () => {
  gw.script(
    { kind: 'reply', text: 'slow', headersDelayMs: 600 },
    { kind: 'reply', text: 'slow but in time', headersDelayMs: 300 },
  );
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { callTimeoutMs: 250, idleTimeoutMs: 50 }), { messages: userSays('x') }),
  );
  expect(err).toMatchObject({ kind: 'timeout', reason: 'call_timeout' });
  const ok = await callGateway(configFor(gw.url, { callTimeoutMs: 1000, idleTimeoutMs: 50 }), {
    messages: userSays('x'),
  });
  expect(ok.text).toBe('slow but in time');
});

it('a timeout of 0 disables it', async () => {
  gw.script({ kind: 'reply', text: 'eventually', headersDelayMs: 200 });
  const result = await callGateway(configFor(gw.url, { idleTimeoutMs: 0 }), {
    messages: userSays('x'),
    stream: true,
  });
  expect(result.text).toBe('eventually');
});
