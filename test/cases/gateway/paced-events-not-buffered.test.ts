// an SSE response whose events are meant to go out about one second apart. Gateway-side
// analogue: our client must see each event as it is written (no buffering into one burst), every
// event is a sign of life, and a stream that never carries a finished chat-completion chunk fails.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, recordHooks, userSays } from '../../gateway/support.js';
import { type ScriptedGateway, startScriptedGateway } from '../../helpers/scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

it('each paced event reaches the client within ~100 ms of being written', async () => {
  const gapMs = 300;
  gw.script({ kind: 'raw', caseId: 'G26', split: 'events', chunkDelayMs: gapMs });
  const rec = recordHooks();
  const t0 = Date.now();
  const err = await gatewayFailure(
    callGateway(
      configFor(gw.url, { idleTimeoutMs: 2000 }),
      { messages: userSays('x'), stream: true },
      rec.hooks,
    ),
  );
  // Headers + event 1 arrive together, then events 2 and 3 each ~gapMs later: no burst at the end.
  const bodyArrivals = rec.activityAtMs.map((t) => t - t0);
  expect(bodyArrivals.length).toBeGreaterThanOrEqual(3);
  const last3 = bodyArrivals.slice(-3);
  expect(last3[1] - last3[0]).toBeGreaterThanOrEqual(gapMs - 100);
  expect(last3[2] - last3[1]).toBeGreaterThanOrEqual(gapMs - 100);
  expect(last3[2] - last3[1]).toBeLessThan(gapMs + 100);
  // No chat-completion chunk, then EOF: the answer never completed.
  expect(err).toMatchObject({ kind: 'unavailable', reason: 'truncated' });
});
