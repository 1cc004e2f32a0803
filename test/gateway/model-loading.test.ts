// A server still loading its model answers 503 until it is ready: llama.cpp's server says
// {"error": {"code": 503, "message": "Loading model", "type": "unavailable_error"}}, Hugging Face's
// inference endpoints {"error": "Model … is currently loading", "estimated_time": 20.0}. Loading a
// large model takes far longer than the two short retries of a momentary failure, so the first
// turn after the server starts (or swaps models) failed as "unavailable". Klebb waits for it
// instead: the wait the server estimates, else a few seconds at a time, without using up the
// retries meant for other failures, within a bound and the turn's deadline.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, recordHooks, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const llamaLoading: ScriptStep = {
  kind: 'error',
  status: 503,
  body: { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } },
};
const answer: ScriptStep = { kind: 'reply', text: 'Six glasses.' };

it("llama.cpp's server loading its model: waited for past the retry count, then the answer", async () => {
  gw.script(llamaLoading, llamaLoading, llamaLoading, llamaLoading, llamaLoading, answer);
  const r = recordHooks();
  const cfg = configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 2 });
  const result = await callGateway(cfg, { messages: userSays('water?'), stream: true }, r.hooks);
  expect(result.text).toBe('Six glasses.');
  expect(gw.requests).toHaveLength(6);
  // each wait a poll of a few backoff steps, not the first step of a backoff
  expect(r.retries.every((w) => w.waitMs >= 8)).toBe(true);
});

it("Hugging Face's estimate of the loading time is the wait", async () => {
  const loading: ScriptStep = {
    kind: 'error',
    status: 503,
    body: { error: 'Model meta-llama/Llama-3.2-3B is currently loading', estimated_time: 0.12 },
  };
  gw.script(loading, loading, answer);
  const r = recordHooks();
  const cfg = configFor(gw.url, { maxRetries: 1 });
  const result = await callGateway(cfg, { messages: userSays('water?') }, r.hooks);
  expect(result.text).toBe('Six glasses.');
  expect(r.retries.map((w) => w.waitMs >= 120)).toEqual([true, true]);
});

it('with retries turned off, a loading server is not waited for either', async () => {
  gw.script(llamaLoading, answer);
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { maxRetries: 0 }), { messages: userSays('water?') }),
  );
  expect(err.reason).toBe('model_loading');
  expect(gw.requests).toHaveLength(1);
});

it('a model that never finishes loading is given up on at the turn deadline, said as unavailable', async () => {
  gw.script(...Array.from({ length: 40 }, () => llamaLoading));
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 5, deadlineAtMs: Date.now() + 300 }), {
      messages: userSays('water?'),
      stream: true,
    }),
  );
  expect(err.kind).toBe('unavailable');
  expect(gw.requests.length).toBeLessThan(40);
});

it('other 503s keep the usual retry count', async () => {
  const busy: ScriptStep = { kind: 'error', status: 503, body: { error: { message: 'Service busy' } } };
  gw.script(busy, busy, busy, busy, answer);
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 }), { messages: userSays('water?') }),
  );
  expect(err.kind).toBe('unavailable');
  expect(gw.requests).toHaveLength(3);
});

it("waiting for a loading model never outlasts the step's own time limit", async () => {
  // each poll (8 steps of 50 ms) is longer than the 300 ms the step may take
  gw.script(llamaLoading, llamaLoading, llamaLoading, answer);
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 50, idleTimeoutMs: 300 }), {
      messages: userSays('water?'),
      stream: true,
    }),
  );
  expect(err.reason).toBe('model_loading');
  expect(gw.requests).toHaveLength(1);
});

for (const message of [
  'llama runner process has terminated: error loading model: unable to load model: /root/.ollama/models/blobs/sha256-6a0746a1ec1a',
  'failed to load model: Failed loading model',
]) {
  it(`a load that failed is not a model still loading: ${message.slice(0, 40)}`, async () => {
    gw.script({ kind: 'error', status: 500, body: { error: message } }, answer);
    const err = await gatewayFailure(
      callGateway(configFor(gw.url, { maxRetries: 0 }), { messages: userSays('water?') }),
    );
    // not waited for as a load under way (it is said as a server that stopped running the model)
    expect(err.reason).not.toBe('model_loading');
    expect(['upstream_error', 'runner_stopped']).toContain(err.reason);
  });
}
