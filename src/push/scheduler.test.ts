import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CardContext } from '../cards/card-context.js';
import { CardRegistry } from '../cards/card-registry.js';
import { NotificationState } from './notification-state.js';
import { evaluate } from './scheduler.js';

describe('scheduler: the time zone is asked for only when a reminder needs it', () => {
  it('decides a minute of a home without reminders without reading the zone', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-scheduler-'));
    try {
      const cards = { registry: new CardRegistry() } as unknown as CardContext;
      let asked = 0;
      const ev = evaluate(cards, new NotificationState(home), Date.UTC(2026, 5, 1, 10, 30), () => {
        asked++;
        return 'Europe/Berlin';
      });
      expect(ev).toEqual({ events: [], skipped: [], changed: false });
      expect(asked).toBe(0);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
