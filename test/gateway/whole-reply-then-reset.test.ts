// A reply that arrived whole is the reply, whatever the connection does after it: servers and
// proxies close a chunked body without its final empty chunk, or send less than the
// Content-Length they announced (a body rewritten on the way). Reading a whole JSON reply as a
// dropped connection would show "unavailable" and ask again for the same thing; a body that is
// really cut short is still a dropped connection, asked again.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, type ScriptStep, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const whole = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [
    { index: 0, message: { role: 'assistant', content: 'You slept 7 h 40 min.' }, finish_reason: 'stop' },
  ],
});

const endings: Array<[string, ScriptStep]> = [
  [
    'a chunked body closed before its final empty chunk',
    {
      kind: 'bytes',
      headers: { 'Content-Type': 'application/json' },
      chunks: [whole.slice(0, 40), whole.slice(40)],
      end: 'destroy',
    },
  ],
  [
    'a body shorter than its Content-Length, then the connection closed',
    {
      kind: 'bytes',
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(whole) + 24),
      },
      chunks: [whole],
      end: 'destroy',
    },
  ],
];

for (const [how, step] of endings) {
  for (const stream of [false, true]) {
    it(`${how} (${stream ? 'streamed' : 'buffered'} request): the reply is shown, asked once`, async () => {
      gw.script(step);
      const result = await callGateway(configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 }), {
        messages: userSays('sleep?'),
        stream,
      });
      expect(result.text).toBe('You slept 7 h 40 min.');
      expect(gw.requests).toHaveLength(1);
    });
  }
}

it('a JSON body really cut short is a dropped connection, asked again', async () => {
  gw.script(
    {
      kind: 'bytes',
      headers: { 'Content-Type': 'application/json' },
      chunks: [whole.slice(0, 60)],
      end: 'destroy',
    },
    { kind: 'bytes', headers: { 'Content-Type': 'application/json' }, chunks: [whole] },
  );
  const cfg = configFor(gw.url, { retryBaseDelayMs: 1 });
  const err = await gatewayFailure(callGateway(cfg, { messages: userSays('sleep?'), stream: false }));
  expect(err).toMatchObject({ kind: 'unavailable', reason: 'connection_reset', retryable: true });
  const again = await callGateway({ ...cfg, maxRetries: 1 }, { messages: userSays('sleep?'), stream: false });
  expect(again.text).toBe('You slept 7 h 40 min.');
});

it('a chunked JSON body whose final empty chunk never comes, the connection held open: shown at once', async () => {
  gw.script({
    kind: 'bytes',
    headers: { 'Content-Type': 'application/json' },
    chunks: [whole.slice(0, 40), whole.slice(40)],
    end: 'hold',
  });
  const started = Date.now();
  const result = await callGateway(configFor(gw.url, { callTimeoutMs: 8_000 }), {
    messages: userSays('sleep?'),
    stream: false,
  });
  expect(result.text).toBe('You slept 7 h 40 min.');
  expect(Date.now() - started).toBeLessThan(3_000);
});
