/**
 * change-log: what keeping change sets costs, and how long an undo takes.
 *
 * How: one temp HEALTH_HOME opened in this process (openInstance from dist, no watcher, the same
 * SQLite settings as the server: WAL, synchronous=FULL). A card of 1 000 rows, then appends of one
 * row through CardDataStore.append (what `POST /api/manifests/:id/rows` calls), each in its own
 * change set as a request's would be, alternating blocks of 20 with the change log recording and
 * with it switched off (ChangeLog.enabled = false: the version still grows, nothing is written),
 * so machine drift falls on both alike. Reports the median of each and the difference.
 * Then undo: a change set of 1 000 appended rows (one scope, as one import or chat turn) is
 * undone with undoChangeSet (the function behind `POST /api/changes/:id/undo`: conflict check,
 * then every row reverted in one transaction); repeated, median reported.
 */
import { performance } from 'node:perf_hooks';
import type { Benchmark } from './lib/bench.js';
import { repoRoot } from './lib/klebb.js';
import { type Figure, progress } from './lib/report.js';
import { makeTempDir, removeTempDir } from './lib/temp.js';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

export const changeLog: Benchmark = {
  name: 'change-log',
  title: 'Change log cost on an append, and undo of a 1 000-row change set',
  async run(ctx) {
    const dist = `${repoRoot}/dist/src`;
    const { loadConfig } = await import(`${dist}/config.js`);
    const { openInstance } = await import(`${dist}/instance.js`);
    const { createCard } = await import(`${dist}/cards/card-crud.js`);
    const { undoChangeSet } = await import(`${dist}/cards/undo.js`);
    const { inChangeSet } = await import(`${dist}/store/change-scope.js`);
    const dir = makeTempDir('change-log');
    const inst = await openInstance(loadConfig({ HEALTH_HOME: dir, KLEBB_LOG_LEVEL: 'silent' }), {
      watch: false,
    });
    try {
      const cards = inst.cards;
      const rows = Array.from({ length: 1000 }, (_, i) => ({ date: `2020-01-01`, seq: i, kg: 80 }));
      createCard(
        cards,
        {
          $schema: 'klebb.datafile.v1',
          meta: { id: 'w', label: 'W', writeable: { fromWebapp: true } },
          data: rows,
        },
        'bench',
      );
      const count = ctx.quick ? 100 : 1000;
      const on: number[] = [];
      const off: number[] = [];
      let seq = 0;
      const one = (into: number[]) => {
        const t0 = performance.now();
        inChangeSet({ actor: 'bench', fresh: true }, () =>
          cards.store.append('w', [], '', { date: '2020-01-02', seq: seq++, kg: 81 }, 'bench'),
        );
        into.push(performance.now() - t0);
      };
      progress(`change-log: ${count} appends with and ${count} without recording`);
      for (let i = 0; i < 20; i++) one([]); // warm-up
      for (let b = 0; b < count / 10; b++) {
        cards.store.changes.enabled = b % 2 === 0;
        for (let i = 0; i < 20; i++) one(b % 2 === 0 ? on : off);
      }
      cards.store.changes.enabled = true;

      const reps = ctx.quick ? 2 : 5;
      const undoMs: number[] = [];
      progress(`change-log: ${reps} undos of a 1 000-row change set`);
      for (let r = 0; r < reps; r++) {
        let setId = 0;
        inChangeSet({ actor: 'bench', fresh: true }, () =>
          cards.store.transaction(() => {
            for (let i = 0; i < 1000; i++)
              cards.store.append('w', [], '', { date: '2020-01-03', seq: seq++ }, 'bench');
            setId = cards.store.changes.openSetId() as number;
          }),
        );
        const t0 = performance.now();
        undoChangeSet(cards, setId, 'bench');
        undoMs.push(performance.now() - t0);
      }
      const mOn = median(on);
      const mOff = median(off);
      const figures: Figure[] = [
        { key: 'append_recorded_median_ms', label: 'append, change log on (median)', value: mOn, unit: 'ms' },
        {
          key: 'append_unrecorded_median_ms',
          label: 'append, change log off (median)',
          value: mOff,
          unit: 'ms',
        },
        {
          key: 'change_log_cost_ms',
          label: 'cost of recording (difference of medians)',
          value: mOn - mOff,
          unit: 'ms',
        },
        {
          key: 'undo_1000_rows_median_ms',
          label: 'undo of a 1 000-row change set (median)',
          value: median(undoMs),
          unit: 'ms',
        },
      ];
      return {
        figures,
        notes: [
          `${on.length} + ${off.length} appends on a 1 000-row card, blocks of 20 alternating; synchronous=FULL in the temp folder`,
          `${reps} undos, each of 1 000 appended rows (conflict check + revert in one transaction)`,
        ],
      };
    } finally {
      await inst.close();
      removeTempDir(dir);
    }
  },
};
