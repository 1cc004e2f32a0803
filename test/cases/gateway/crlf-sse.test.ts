// SSE framed with CRLF line endings; one data field without the space after the colon.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { configFor, recordHooks, userSays } from '../../gateway/support.js';
import { readCaseBytes, type ScriptedGateway, startScriptedGateway } from '../../helpers/scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

it('parses CRLF framing and data: without a space', async () => {
  gw.script({ kind: 'raw', caseId: 'G24' });
  const rec = recordHooks();
  const result = await callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }, rec.hooks);
  expect(result.text).toBe('Hello');
  expect(rec.tokens).toEqual(['Hel', 'lo']);
  expect(result.finishReason).toBe('stop');
});

it('survives every CRLF split across two network reads', async () => {
  const bytes = readCaseBytes('G24');
  const cuts: number[] = [];
  bytes.forEach((b, i) => {
    if (b === 0x0d) cuts.push(i + 1); // between CR and LF
  });
  gw.script({ kind: 'raw', caseId: 'G24', split: cuts, chunkDelayMs: 5 });
  const rec = recordHooks();
  const result = await callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }, rec.hooks);
  expect(result.text).toBe('Hello');
  expect(result.finishReason).toBe('stop');
  expect(rec.activityAtMs.length).toBeGreaterThan(cuts.length / 2); // really arrived in pieces
});

it('CR-only line endings and multi-line data joined with \\n', async () => {
  const body = [
    'data: {"choices":[{"index":0,"delta":{"content":"A"},\r',
    'data: "finish_reason":null}]}\r\r',
    'data:{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\r\r',
    'data:  [DONE] \r\r',
  ];
  gw.script({ kind: 'bytes', chunks: body });
  const result = await callGateway(configFor(gw.url), { messages: userSays('x'), stream: true });
  expect(result.text).toBe('A');
  expect(result.finishReason).toBe('stop');
});
