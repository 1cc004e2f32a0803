// an SSE stream cut in the middle of an event (the socket died). Gateway-side analogue:
// the incomplete event is thrown away (never JSON-parsed), and the cut is a recoverable
// disconnect (retryable 'unavailable'), not a parse error.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, recordHooks, userSays } from '../../gateway/support.js';
import { type ScriptedGateway, startScriptedGateway } from '../../helpers/scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

it('the fixture cut mid-event settles as a retryable truncated stream, not a parse error', async () => {
  gw.script({ kind: 'raw', caseId: 'G27' });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }));
  expect(err).toMatchObject({ kind: 'unavailable', reason: 'truncated', retryable: true });
});

it('a chat stream cut mid-event keeps the complete events and drops the half one', async () => {
  const chunk = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const second = chunk({
    content: 'lo',
    tool_calls: [{ index: 0, id: 'c', function: { name: 'search', arguments: '{}' } }],
  });
  gw.script({ kind: 'bytes', end: 'destroy', chunks: [chunk({ content: 'Hel' }), second.slice(0, 40)] });
  const rec = recordHooks();
  const err = await gatewayFailure(
    callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }, rec.hooks),
  );
  expect(err).toMatchObject({
    kind: 'unavailable',
    reason: 'truncated',
    retryable: true,
    partialText: 'Hel',
  });
  expect(rec.tokens).toEqual(['Hel']);
  expect(err.message).toMatch(/dropped/);
});

it('a cut before any text is retried when allowed', async () => {
  gw.script({ kind: 'raw', caseId: 'G27' }, { kind: 'reply', text: 'Recovered.' });
  const result = await callGateway(configFor(gw.url, { maxRetries: 1, retryBaseDelayMs: 1 }), {
    messages: userSays('x'),
    stream: true,
  });
  expect(result.text).toBe('Recovered.');
});
