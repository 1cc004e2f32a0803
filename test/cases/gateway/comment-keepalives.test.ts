// SSE comment keep-alives ": OPENROUTER PROCESSING" before and between data events.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { configFor, recordHooks, userSays } from '../../gateway/support.js';
import { type ScriptedGateway, startScriptedGateway } from '../../helpers/scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

it('drops comment lines before JSON parsing and reports them as keep-alives', async () => {
  gw.script({ kind: 'raw', caseId: 'G06', split: 'events', chunkDelayMs: 5 });
  const rec = recordHooks();
  const result = await callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }, rec.hooks);
  expect(result.text).toBe('The next day');
  expect(rec.tokens).toEqual(['The', ' next', ' day']);
  expect(rec.keepAlives).toEqual(['OPENROUTER PROCESSING', 'OPENROUTER PROCESSING', 'OPENROUTER PROCESSING']);
  expect(result.usage).toMatchObject({ promptTokens: 14, completionTokens: 3, totalTokens: 17 });
});

it('keep-alive comments alone reset the idle timeout', async () => {
  const comment = ': OPENROUTER PROCESSING\n\n';
  const chunk = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  // 6 comments 120 ms apart: 600+ ms of no data events, against a 300 ms idle timeout.
  gw.script({
    kind: 'bytes',
    chunkDelayMs: 120,
    chunks: [
      comment,
      comment,
      comment,
      comment,
      comment,
      comment,
      chunk({ content: 'Ready' }),
      chunk({}, 'stop'),
    ],
  });
  const rec = recordHooks();
  const result = await callGateway(
    configFor(gw.url, { idleTimeoutMs: 300 }),
    { messages: userSays('x'), stream: true },
    rec.hooks,
  );
  expect(result.text).toBe('Ready');
  expect(rec.keepAlives).toHaveLength(6);
  expect(rec.activityAtMs.length).toBeGreaterThanOrEqual(8);
});

it('a keep-alive re-wrapped as a data event is ignored, not a parse error', async () => {
  const chunk = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  gw.script({
    kind: 'bytes',
    chunks: ['data: : OPENROUTER PROCESSING\n\n', chunk({ content: 'Hi' }), chunk({}, 'stop')],
  });
  const result = await callGateway(configFor(gw.url), { messages: userSays('x'), stream: true });
  expect(result.text).toBe('Hi');
  expect(result.warnings.join(' ')).toMatch(/non-JSON stream event/);
});
