// Ollama's 500 "model runner has unexpectedly stopped, this may be due to resource limitations or
// an internal error, check ollama server logs for details" (reported again and again to clients:
// https://github.com/continuedev/continue/issues/11464, https://github.com/ollama/ollama/issues/14093),
// and its older "llama runner process has terminated: exit status 2"
// (https://github.com/ollama/ollama/issues/8770). It happens now and then, so it is still asked
// again; when it keeps happening the person read "The chat service is unavailable right now. Please
// try again in a little while", which says nothing they can do. They now read that the server
// stopped running the model, what that most often means (memory) and what helps.
import { expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();
const retrying = () => configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 });
const STOPPED =
  'model runner has unexpectedly stopped, this may be due to resource limitations or an internal error, check ollama server logs for details';

const answers: Array<[string, ScriptStep, boolean]> = [
  ["Ollama's 500", { kind: 'error', status: 500, body: { error: STOPPED } }, false],
  [
    "Ollama's older wording through its OpenAI-compatible error object",
    {
      kind: 'error',
      status: 500,
      body: { error: { message: 'llama runner process has terminated: exit status 2', type: 'api_error' } },
    },
    true,
  ],
  [
    'the same error as the first event of a stream',
    {
      kind: 'bytes',
      headers: { 'Content-Type': 'text/event-stream' },
      chunks: [`data: ${JSON.stringify({ error: { message: STOPPED, code: 500 } })}\n\n`],
    },
    true,
  ],
];

for (const [what, step, stream] of answers) {
  it(`${what}: asked again, then told what it most often means and what helps`, async () => {
    gw.script(step, step, step);
    const err = await gatewayFailure(callGateway(retrying(), { messages: userSays('water'), stream }));
    expect(err.reason).toBe('runner_stopped');
    expect(gw.requests).toHaveLength(3);
    const copy = failureCopy(err);
    expect(copy.status).toBe(502);
    expect(copy.error).toMatch(/^The model's server stopped while running the model \(/);
    expect(copy.error).toMatch(/short of memory/);
    expect(copy.error).toMatch(/choose a smaller model in CHAT_MODEL/);
    expect(copy.error).not.toMatch(/unavailable right now/);
  });
}

it('asked again, the answer that comes is the reply', async () => {
  gw.script({ kind: 'error', status: 500, body: { error: STOPPED } }, { kind: 'reply', text: 'Logged.' });
  const result = await callGateway(retrying(), { messages: userSays('water') });
  expect(result.text).toBe('Logged.');
});

// LM Studio answers 400 "The model has crashed without additional information. (Exit code: null)"
// when its worker died (a JIT eviction, an allocator failure) and starts it again: clients that
// ask again get the answer. Read as a refused request, it was never asked again.
const LM_STUDIO_CRASH: ScriptStep = {
  kind: 'error',
  status: 400,
  body: { error: 'The model has crashed without additional information. (Exit code: null)' },
};

it("LM Studio's crashed model, said with 400: asked again, and the answer that comes is the reply", async () => {
  gw.script(LM_STUDIO_CRASH, { kind: 'reply', text: 'Logged.' });
  const result = await callGateway(retrying(), { messages: userSays('water'), stream: true });
  expect(result.text).toBe('Logged.');
  expect(gw.requests).toHaveLength(2);
});

it("LM Studio's crashed model every time: told what it most often means and what helps", async () => {
  gw.script(LM_STUDIO_CRASH, LM_STUDIO_CRASH, LM_STUDIO_CRASH);
  const err = await gatewayFailure(callGateway(retrying(), { messages: userSays('water') }));
  expect(gw.requests).toHaveLength(3);
  expect(failureCopy(err).error).toMatch(/^The model's server stopped while running the model \(/);
});

it('a plain internal error is still told as unavailable', async () => {
  const step: ScriptStep = { kind: 'error', status: 500, body: { error: 'internal error' } };
  gw.script(step, step, step);
  const err = await gatewayFailure(callGateway(retrying(), { messages: userSays('water') }));
  expect(failureCopy(err).error).toMatch(/unavailable right now/);
});
