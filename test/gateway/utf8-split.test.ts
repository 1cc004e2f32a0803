//: a multi-byte UTF-8 character split across TCP writes must survive.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const text = 'Grüße ☕ 😀 done';

/** Splits `bytes` at the given offsets. */
function cut(bytes: Buffer, ...at: number[]): Buffer[] {
  const out: Buffer[] = [];
  let prev = 0;
  for (const a of at) {
    out.push(bytes.subarray(prev, a));
    prev = a;
  }
  out.push(bytes.subarray(prev));
  return out;
}

it('a character split across two writes of an SSE stream arrives whole', async () => {
  const event = Buffer.from(
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`,
    'utf8',
  );
  const emoji = event.indexOf(Buffer.from('😀', 'utf8'));
  const umlaut = event.indexOf(Buffer.from('ü', 'utf8'));
  gw.script({ kind: 'bytes', chunkDelayMs: 30, chunks: cut(event, umlaut + 1, emoji + 2) });
  const rec = recordHooks();
  const result = await callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }, rec.hooks);
  expect(result.text).toBe(text);
  expect(result.text).not.toContain('\uFFFD');
  expect(rec.tokens.join('')).toBe(text);
});

it('a character split across two writes of a buffered JSON body arrives whole', async () => {
  const body = Buffer.from(
    JSON.stringify({
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }],
    }),
    'utf8',
  );
  const coffee = body.indexOf(Buffer.from('☕', 'utf8'));
  gw.script({
    kind: 'bytes',
    headers: { 'Content-Type': 'application/json' },
    chunkDelayMs: 30,
    chunks: cut(body, coffee + 1, coffee + 2),
  });
  const result = await callGateway(configFor(gw.url), { messages: userSays('x') });
  expect(result.text).toBe(text);
});
