/**
 * Dismissing a combined-view suggestion records its set of cards; a list that cannot be a
 * suggestion's (tens of thousands of ids, fewer than three, an id repeated, something that is not
 * a card id) is refused with 400 naming the list or the item, and nothing is recorded. The file
 * of dismissals keeps the newest few hundred, whatever is sent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DISMISSALS_KEPT, MAX_SUGGESTION_DISMISS_IDS } from '../../src/limits.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
const dismiss = (cardIds: unknown) => s.api('/api/cc-suggestions/vitals/dismiss', { json: { cardIds } });
const file = () => path.join(s.dataDir, '_meta', 'cc-suggestions-dismissed.json');
const kept = (): string[] => (fs.existsSync(file()) ? JSON.parse(fs.readFileSync(file(), 'utf8')) : []);

beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
});

describe('a suggestion dismissal', () => {
  it('of 40 000 made-up ids is 400 naming body.cardIds, and nothing is kept', async () => {
    const r = await dismiss(Array.from({ length: 40_000 }, (_, i) => `fake-${i}`));
    expect(r.status, r.text).toBe(400);
    expect(r.body.details).toEqual([{ path: 'body.cardIds', message: expect.stringMatching(/got 40000/) }]);
    expect(kept()).toEqual([]);
  });

  it('of more than the cap, or fewer than a suggestion holds, is 400 naming body.cardIds', async () => {
    const over = await dismiss(Array.from({ length: MAX_SUGGESTION_DISMISS_IDS + 1 }, (_, i) => `c${i}`));
    expect(over.status).toBe(400);
    expect(over.body.details[0].path).toBe('body.cardIds');
    const two = await dismiss(['bp', 'spo2']);
    expect(two.status).toBe(400);
    expect(two.body.details[0].path).toBe('body.cardIds');
    expect(kept()).toEqual([]);
  });

  it('holding something that is not a card id, or an id twice, is 400 naming that item', async () => {
    const cases: [unknown, string][] = [
      [['bp', 'spo2', '../../etc/passwd'], 'body.cardIds[2]'],
      [['bp', 'Blood Pressure', 'spo2'], 'body.cardIds[1]'],
      [['x'.repeat(65), 'bp', 'spo2'], 'body.cardIds[0]'],
      [['bp', '', 'spo2'], 'body.cardIds[1]'],
      [['bp', 'spo2', 7], 'body.cardIds[2]'],
      [['bp', 'spo2', { id: 'x' }], 'body.cardIds[2]'],
      [['bp', 'spo2', 'bp'], 'body.cardIds[2]'],
      [['bp', 'spo2', 'a\u0000b'], 'body.cardIds[2]'],
    ];
    for (const [ids, at] of cases) {
      const r = await dismiss(ids);
      expect(r.status, JSON.stringify(ids)).toBe(400);
      expect(r.body.details[0].path, JSON.stringify(ids)).toBe(at);
    }
    expect(kept()).toEqual([]);
  });

  it('of a set of card ids is kept; the file keeps only the newest dismissals', async () => {
    const r = await dismiss(['glucose', 'bp', 'spo2']);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ ok: true, category: 'vitals', cardIds: ['bp', 'glucose', 'spo2'] });
    expect(kept()).toEqual(['vitals::bp,glucose,spo2']);
    for (let i = 0; i < MAX_DISMISSALS_KEPT + 5; i++)
      expect((await dismiss(['a', 'b', `c${i}`])).status).toBe(200);
    const now = kept();
    expect(now).toHaveLength(MAX_DISMISSALS_KEPT);
    expect(now.at(-1)).toBe(`vitals::a,b,c${MAX_DISMISSALS_KEPT + 4}`);
    expect(now).not.toContain('vitals::bp,glucose,spo2');
  });
});
