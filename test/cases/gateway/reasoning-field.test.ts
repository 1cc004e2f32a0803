// reasoning streamed as delta.reasoning (newer vLLM) instead of delta.reasoning_content.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, recordHooks, userSays } from '../../gateway/support.js';
import { type ScriptedGateway, startScriptedGateway } from '../../helpers/scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const chunk = (delta: unknown, finish: string | null = null) =>
  `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

it('reasoning goes to its own channel, never into the answer text', async () => {
  gw.script({ kind: 'raw', caseId: 'G16' });
  const rec = recordHooks();
  const result = await callGateway(
    configFor(gw.url),
    { messages: userSays('2+2?'), stream: true },
    rec.hooks,
  );
  expect(result.text).toBe('The answer is 4.');
  expect(result.reasoning).toBe('2 plus 2 is 4.');
  expect(rec.tokens).toEqual(['The answer is 4.']);
  expect(rec.reasoning).toEqual(['2 plus 2', ' is 4.']);
});

it('reads reasoning_content too, ignores null and empty placeholders, and non-streamed message.reasoning', async () => {
  gw.script(
    {
      kind: 'bytes',
      chunks: [
        chunk({ role: 'assistant', content: '', reasoning_content: null }),
        chunk({ reasoning_content: 'Think.', content: null }),
        chunk({ reasoning_content: '', reasoning: ' More.' }),
        chunk({ content: 'Answer.' }),
        chunk({}, 'stop'),
      ],
    },
    {
      kind: 'bytes',
      headers: { 'Content-Type': 'application/json' },
      chunks: [
        JSON.stringify({
          choices: [
            {
              index: 0,
              finish_reason: 'stop',
              message: { role: 'assistant', content: '4', reasoning: 'adding' },
            },
          ],
        }),
      ],
    },
  );
  const cfg = configFor(gw.url);
  const streamed = await callGateway(cfg, { messages: userSays('x'), stream: true });
  expect(streamed).toMatchObject({ text: 'Answer.', reasoning: 'Think. More.' });
  const buffered = await callGateway(cfg, { messages: userSays('x') });
  expect(buffered).toMatchObject({ text: '4', reasoning: 'adding' });
});

it('reasoning-only chunks count as progress for the idle timeout', async () => {
  gw.script({
    kind: 'bytes',
    chunkDelayMs: 100,
    chunks: [
      ...Array.from({ length: 6 }, () => chunk({ reasoning: 'hmm ' })),
      chunk({ content: 'Done.' }),
      chunk({}, 'stop'),
    ],
  });
  const result = await callGateway(configFor(gw.url, { idleTimeoutMs: 250 }), {
    messages: userSays('x'),
    stream: true,
  });
  expect(result.text).toBe('Done.');
});

it('a reply with reasoning but no answer is empty', async () => {
  gw.script({ kind: 'bytes', chunks: [chunk({ reasoning: 'thinking only' }), chunk({}, 'stop')] });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }));
  expect(err.kind).toBe('empty');
});
