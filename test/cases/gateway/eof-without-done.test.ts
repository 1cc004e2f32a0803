// the stream closes (EOF) after the final chunk without data: [DONE] (ik_llama.cpp).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, userSays } from '../../gateway/support.js';
import { readCaseBytes, type ScriptedGateway, startScriptedGateway } from '../../helpers/scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

it('EOF after every choice has a finish_reason is a normal completion', async () => {
  gw.script({ kind: 'raw', caseId: 'G09' });
  const result = await callGateway(configFor(gw.url), { messages: userSays('hi'), stream: true });
  expect(result.text).toBe('Hello!');
  expect(result.finishReason).toBe('stop');
  expect(result.usage).toMatchObject({ promptTokens: 9, completionTokens: 2, totalTokens: 11 });
});

it('EOF before any finish_reason is a truncated stream: partial text kept, turn failed, retryable', async () => {
  const events = readCaseBytes('G09').toString('utf8').split('\n\n');
  gw.script({ kind: 'bytes', chunks: [`${events[0]}\n\n`, `${events[1]}\n\n`] }); // no finish chunk
  const err = await gatewayFailure(
    callGateway(configFor(gw.url), { messages: userSays('hi'), stream: true }),
  );
  expect(err).toMatchObject({
    kind: 'unavailable',
    reason: 'truncated',
    retryable: true,
    partialText: 'Hello!',
  });
});

it('a truncated stream before any text is retried when retries are allowed', async () => {
  gw.script({ kind: 'bytes', chunks: [': warming up\n\n'] }, { kind: 'raw', caseId: 'G09' });
  const result = await callGateway(configFor(gw.url, { maxRetries: 1, retryBaseDelayMs: 1 }), {
    messages: userSays('hi'),
    stream: true,
  });
  expect(result.text).toBe('Hello!');
  expect(gw.requests).toHaveLength(2);
});
