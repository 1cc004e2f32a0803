/**
 * A card file that vanishes and comes back within a minute (a sync tool deleting before it
 * downloads, a slow rename) is the same card, and its reminders keep what they knew: when they
 * were last sent and the slot last handled. Before, the card's reminder state was dropped the
 * moment the file vanished, so Settings lost the "last sent" of each reminder. A card gone for
 * good has its state dropped once it has stayed away for that minute (one deleted through the
 * app or the API at once, as before).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardEvent } from '../../src/cards/card-loader.js';
import { CARD_RETURN_MS } from '../../src/limits.js';
import { type PushStandIn, startPushStandIn } from '../helpers/push-stand-in.js';
import { startServer, type TestServer } from '../helpers/server.js';

let push: PushStandIn;
let s: TestServer;
beforeAll(async () => {
  push = await startPushStandIn();
  s = await startServer({
    env: { KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' },
    push: { agent: push.agent, retryBaseMs: 10, autoStart: false },
  });
  s.inst.user.setTimeZone('UTC');
  const r = await s.api('/api/manifests', {
    json: {
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'c',
        label: 'c',
        notifications: {
          items: [
            {
              id: 'r',
              label: 'r',
              title: 'Time to log',
              body: 'Open the card',
              privacy: 'public',
              trigger: { type: 'daily', time: '09:00' },
            },
          ],
        },
      },
      data: [],
    },
  });
  expect(r.status, r.text).toBe(201);
  const sub = push.subscribe();
  await s.api('/api/push/subscribe', { json: { endpoint: sub.endpoint, keys: sub.keys } });
});
afterAll(async () => {
  await s?.close();
  await push?.close();
});

function nextEvent(type: CardEvent['type']): Promise<void> {
  return new Promise((resolve) => {
    const on = (e: CardEvent) => {
      if (e.id === 'c' && e.type === type) {
        s.inst.events.off('card', on);
        resolve();
      }
    };
    s.inst.events.on('card', on);
  });
}

describe('reminder state of a card whose file vanishes', () => {
  it('is kept when the file comes back within the minute', { timeout: 20_000 }, async () => {
    await s.inst.push.tick(new Date('2030-01-01T08:00:00Z'));
    const fired = await s.inst.push.tick(new Date('2030-01-01T09:00:00Z'));
    expect(fired.map((f) => f.event.cardId)).toEqual(['c']);
    const before = s.inst.push.state.peek('c#r');
    expect(before?.lastFired).toBeDefined();

    const file = path.join(s.dataDir, 'c.json');
    const away = path.join(s.home, 'c.json.away');
    const removed = nextEvent('card-removed');
    fs.renameSync(file, away);
    await removed;
    const back = nextEvent('card-changed');
    fs.renameSync(away, file);
    await back;

    expect(s.inst.push.state.peek('c#r')).toEqual(before);
    // and nothing is sent again for the slot already handled
    for (const at of ['2030-01-01T09:01:00Z', '2030-01-01T09:02:00Z'])
      expect(await s.inst.push.tick(new Date(at))).toEqual([]);
  });

  it('is dropped once a file deleted by hand has stayed away for the minute', {
    timeout: 20_000,
  }, async () => {
    const removed = nextEvent('card-removed');
    fs.rmSync(path.join(s.dataDir, 'c.json'));
    await removed;
    s.inst.push.forgetGoneCards(new Date(Date.now() + CARD_RETURN_MS / 2));
    expect(s.inst.push.state.peek('c#r')).toBeDefined();
    s.inst.push.forgetGoneCards(new Date(Date.now() + CARD_RETURN_MS + 1000));
    expect(s.inst.push.state.peek('c#r')).toBeUndefined();
  });
});
