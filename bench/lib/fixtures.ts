/**
 * The shared "many cards" home of cold-start and list-manifests: 200 weight cards of 10 000 rows
 * each (2 000 000 rows), seeded through the store (see klebb.ts), no welcome card. Made once per
 * run; its temp folder is removed by the runner at the end.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BenchContext } from './bench.js';
import { seedHomeViaStore } from './klebb.js';
import { progress } from './report.js';
import { makeTempDir } from './temp.js';

export interface CardsHome {
  /** The temp folder holding `home/`; log files of servers started on it go here too. */
  dir: string;
  home: string;
  cards: number;
  rowsPerCard: number;
  seedS: number;
}

/** The 200 x 10 000 home (20 x 1 000 with --quick). */
export function cardsHome(ctx: BenchContext): Promise<CardsHome> {
  const cards = ctx.quick ? 20 : 200;
  const rowsPerCard = ctx.quick ? 1_000 : 10_000;
  return ctx.shared(`cards-home-${cards}x${rowsPerCard}`, async () => {
    const dir = makeTempDir('cards');
    const home = path.join(dir, 'home');
    progress(`seeding ${cards} cards x ${rowsPerCard} rows via the store into ${home}`);
    const t0 = performance.now();
    const ids = Array.from({ length: cards }, (_, i) => ({
      id: `weight-${String(i + 1).padStart(3, '0')}`,
      rows: rowsPerCard,
    }));
    await seedHomeViaStore(home, ids, {
      onCard: (i) => {
        if ((i + 1) % 50 === 0) progress(`  ${i + 1}/${cards} cards seeded`);
      },
    });
    const seedS = (performance.now() - t0) / 1000;
    progress(`seeded in ${seedS.toFixed(1)} s`);
    return { dir, home, cards, rowsPerCard, seedS };
  });
}
