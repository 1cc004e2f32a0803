/**
 * A large push fills its cards in steps (rows computed between turns of the event loop, written
 * at the end): a push that lands on the same day meanwhile is not overwritten by rows computed
 * before it arrived, and the rows are those of a fill in one go.
 */
import { describe, expect, it } from 'vitest';
import { createCard } from '../../src/cards/card-crud.js';
import { loadConfig } from '../../src/config.js';
import { normalisePayload } from '../../src/ingest/hae/format/payload.js';
import { extractSamples } from '../../src/ingest/hae/format/samples.js';
import { openInstance } from '../../src/instance.js';
import { sandboxHome } from '../helpers/sandbox-home.js';
import { haeCard } from './helpers.js';

const steps = (points: [string, number][]) =>
  normalisePayload({
    data: {
      metrics: [
        {
          name: 'step_count',
          units: 'count',
          data: points.map(([date, qty]) => ({ date, qty, source: 'Phone' })),
        },
      ],
    },
  });

describe('filling cards in steps', () => {
  it('a push arriving while the rows are computed is counted, not overwritten', async () => {
    const box = sandboxHome();
    const inst = await openInstance(loadConfig({ HEALTH_HOME: box.home, KLEBB_LOG_LEVEL: 'silent' }), {
      watch: false,
    });
    try {
      createCard(inst.cards, haeCard('steps', 'step_count'), 'test');
      const big = inst.hae.startPush('apple-health', 1);
      const days = Array.from({ length: 30 }, (_, i) => `2024-05-${String(i + 1).padStart(2, '0')}`);
      await big.addInBatches(extractSamples(steps(days.map((d) => [`${d} 09:00:00 +0200`, 1000]))));
      const finishing = big.finishInSteps();
      // runs while the import's rows wait to be written: one more reading on 1 May
      inst.hae.startPush('hae', 1).addPayloadAndFinish(steps([['2024-05-01 18:00:00 +0200', 234]]));
      const summary = await finishing;
      // 29 rows written by the import: the row of 1 May (1 000 + 234) was already written by the
      // push that came meanwhile, from every sample stored then
      expect(summary.ingested).toEqual({ steps: 29 });
      const rows = inst.cards.store.read('steps') as { date: string; count: number }[];
      expect(rows).toHaveLength(30);
      expect(rows[0]).toEqual({ date: '2024-05-01', count: 1234 });
      expect(rows[29]).toEqual({ date: '2024-05-30', count: 1000 });
    } finally {
      await inst.close();
      box.remove();
    }
  });
});
