// A relay whose upstream stalled keeps the stream open with keep-alive comments (OpenRouter's
// ': OPENROUTER PROCESSING', a proxy's heartbeats): each reset the idle timeout, so a stalled
// stream never timed out and the turn waited until its deadline, or for ever with
// CHAT_TURN_DEADLINE_MS=0 (the same fault as https://github.com/anomalyco/opencode/issues/43519
// and https://github.com/earendil-works/pi/issues/5558). Keep-alives alone now hold a stream open
// only so long (keepAliveOnlyMs, by default the 540 s hop ceiling): then it fails as a timeout,
// keeping what was already shown. Keep-alives between real pieces still keep a slow stream alive.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import { choiceEvent, DONE, scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();
const KEEP_ALIVE = ': OPENROUTER PROCESSING\n\n';
/** Far more keep-alives (one every 50 ms, 100 s in all) than any test waits for: a relay that never gives up. */
const forEver = Array.from({ length: 2000 }, () => KEEP_ALIVE);
const config = () => configFor(gw.url, { idleTimeoutMs: 1000, keepAliveOnlyMs: 2000 });

it('keep-alives and nothing else: the stream fails as a timeout instead of waiting for ever', async () => {
  gw.script({ kind: 'bytes', chunkDelayMs: 50, end: 'hold', chunks: forEver });
  const err = await gatewayFailure(callGateway(config(), { messages: userSays('water'), stream: true }));
  expect(err).toMatchObject({ kind: 'timeout', reason: 'idle_timeout' });
  expect(err.message).toMatch(/only keep-alive comments/);
}, 15_000);

it('a stream that stalls after its first words keeps them as the partial text', async () => {
  gw.script({
    kind: 'bytes',
    chunkDelayMs: 50,
    end: 'hold',
    chunks: [choiceEvent({ delta: { role: 'assistant', content: 'You drank' } }), ...forEver],
  });
  const err = await gatewayFailure(callGateway(config(), { messages: userSays('water'), stream: true }));
  expect(err).toMatchObject({ kind: 'timeout', reason: 'idle_timeout', partialText: 'You drank' });
}, 15_000);

it('keep-alives between real pieces keep a slow stream alive past that limit', async () => {
  const slow: string[] = [];
  for (const word of [
    'You ',
    'drank ',
    '1.2 ',
    'litres ',
    'of ',
    'water ',
    'and ',
    'tea ',
    'so ',
    'far ',
    'today.',
  ]) {
    slow.push(KEEP_ALIVE, KEEP_ALIVE, KEEP_ALIVE, KEEP_ALIVE, choiceEvent({ delta: { content: word } }));
  }
  gw.script({
    kind: 'bytes',
    chunkDelayMs: 50,
    chunks: [...slow, choiceEvent({ delta: {}, finish_reason: 'stop' }), DONE],
  });
  const result = await callGateway(config(), { messages: userSays('water'), stream: true });
  expect(result.text).toBe('You drank 1.2 litres of water and tea so far today.');
});
