// A model too big for the memory of the machine serving it: Ollama answers every request for it
// with 500 and "model requires more system memory (7.3 GiB) than is available (6.0 GiB)", a
// llama.cpp server cannot allocate its buffers. Asking again loads the model again and fails the
// same way, so it is asked once, and the person is told what to change (a smaller CHAT_MODEL, or
// free memory), with the server's words, instead of "unavailable, try again in a little while".
import { afterEach, beforeEach, expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, type ScriptStep, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const retrying = () => configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 });
const OLLAMA = 'model requires more system memory (7.3 GiB) than is available (6.0 GiB)';

const answers: Array<[string, ScriptStep, boolean]> = [
  ["Ollama's 500", { kind: 'error', status: 500, body: { error: OLLAMA } }, false],
  [
    "Ollama's 500 through its OpenAI-compatible error object",
    {
      kind: 'error',
      status: 500,
      body: { error: { message: OLLAMA, type: 'api_error', param: null, code: null } },
    },
    true,
  ],
  [
    'the same error as the first event of a stream',
    {
      kind: 'bytes',
      headers: { 'Content-Type': 'text/event-stream' },
      chunks: [`data: ${JSON.stringify({ error: { message: OLLAMA, code: 500 } })}\n\n`],
    },
    true,
  ],
  [
    "a llama.cpp server that cannot allocate the model's buffers",
    {
      kind: 'error',
      status: 500,
      body: { error: { code: 500, message: 'unable to allocate CUDA0 buffer', type: 'server_error' } },
    },
    false,
  ],
  // Ollama's runner dying as the GPU refuses the model's buffers
  // (https://github.com/ollama/ollama/issues/12982, https://github.com/ollama/ollama/issues/9782)
  [
    "Ollama's runner stopped by cudaMalloc",
    {
      kind: 'error',
      status: 500,
      body: { error: 'llama runner process has terminated: cudaMalloc failed: out of memory' },
    },
    false,
  ],
  [
    "Ollama's runner stopped by a CUDA error, in a stream",
    {
      kind: 'bytes',
      headers: { 'Content-Type': 'text/event-stream' },
      chunks: [
        `data: ${JSON.stringify({ error: { message: 'llama runner process has terminated: CUDA error: out of memory', type: 'api_error' } })}\n\n`,
      ],
    },
    true,
  ],
];

for (const [what, step, stream] of answers) {
  it(`${what}: asked once, and told to choose a smaller model or free memory`, async () => {
    gw.script(step, step, step);
    const err = await gatewayFailure(callGateway(retrying(), { messages: userSays('water'), stream }));
    expect(err).toMatchObject({ kind: 'failed', reason: 'model_too_large', retryable: false });
    expect(gw.requests).toHaveLength(1);
    const copy = failureCopy(err).error;
    expect(copy).toMatch(/does not fit in the memory of the machine that runs it/);
    expect(copy).toMatch(/CHAT_MODEL/);
    if (what.startsWith("Ollama's 500")) expect(copy).toContain('7.3 GiB');
    if (what.startsWith("Ollama's runner")) expect(copy).toContain('out of memory');
  });
}

it('a bare "out of memory" while serving may pass: still asked again', async () => {
  gw.script(
    { kind: 'error', status: 500, body: { error: 'out of memory' } },
    { kind: 'reply', text: 'Logged.' },
  );
  const result = await callGateway(retrying(), { messages: userSays('water') });
  expect(result.text).toBe('Logged.');
});

it('an internal error that says nothing of memory is still asked again', async () => {
  gw.script(
    { kind: 'error', status: 500, body: { error: 'internal error' } },
    { kind: 'reply', text: 'Logged.' },
  );
  const result = await callGateway(retrying(), { messages: userSays('water') });
  expect(result.text).toBe('Logged.');
});
