// The caller's AbortSignal stops the call (seed: a step past its budget "aborts the in-flight gateway call").
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

it('aborting mid-stream rejects with the signal reason and stops reading', async () => {
  gw.script({ kind: 'stall', afterText: 'Some text' });
  const controller = new AbortController();
  const rec = recordHooks();
  rec.hooks.onToken = (t) => {
    rec.tokens.push(t);
    if (rec.tokens.join('') === 'Some text') setTimeout(() => controller.abort(), 20);
  };
  const t0 = Date.now();
  await expect(
    callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }, rec.hooks, controller.signal),
  ).rejects.toMatchObject({ name: 'AbortError' });
  expect(Date.now() - t0).toBeLessThan(1000);
});

it('a custom abort reason is what the call rejects with', async () => {
  gw.script({ kind: 'stall' });
  const reason = new Error('iter_timeout');
  const signal = AbortSignal.timeout(50);
  const controller = new AbortController();
  signal.addEventListener('abort', () => controller.abort(reason));
  await expect(
    callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }, {}, controller.signal),
  ).rejects.toBe(reason);
});

it('an already-aborted signal sends nothing', async () => {
  const controller = new AbortController();
  controller.abort();
  await expect(
    callGateway(configFor(gw.url), { messages: userSays('x') }, {}, controller.signal),
  ).rejects.toMatchObject({
    name: 'AbortError',
  });
  expect(gw.requests).toHaveLength(0);
});

it('aborting during a retry wait stops at once', async () => {
  gw.script({
    kind: 'error',
    status: 503,
    headers: { 'Retry-After': '5' },
    body: { error: { message: 'busy' } },
  });
  const controller = new AbortController();
  const rec = recordHooks();
  rec.hooks.onRetry = () => setTimeout(() => controller.abort(), 20);
  const t0 = Date.now();
  await expect(
    callGateway(
      configFor(gw.url, { maxRetries: 2 }),
      { messages: userSays('x') },
      rec.hooks,
      controller.signal,
    ),
  ).rejects.toMatchObject({ name: 'AbortError' });
  expect(Date.now() - t0).toBeLessThan(1000);
  expect(gw.requests).toHaveLength(1);
});
