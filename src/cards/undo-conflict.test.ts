import { describe, expect, it } from 'vitest';
import { type ChangeRecord, MANIFEST_OP } from '../store/change-log.js';
import { undoConflictError } from './undo.js';

const rec = (id: number, setId: number, over: Partial<ChangeRecord>): ChangeRecord => ({
  id,
  setId,
  ts: '2026-12-03T10:00:00.000Z',
  actor: 'hae',
  cardId: 'steps',
  op: 'replace',
  path: null,
  before: null,
  after: null,
  imageOmitted: false,
  rowId: null,
  pos: null,
  ...over,
});

const labels: Record<string, string> = { steps: 'Steps', weight: 'Weight' };

describe('the UNDO_CONFLICT sentence', () => {
  it('names each later change set once per card, with how many rows it touched', () => {
    const hits = [
      rec(10, 17, { path: '[date="2026-07-01"]', rowId: 1 }),
      rec(11, 17, { path: '[date="2026-07-02"]', rowId: 2 }),
      rec(12, 17, { path: '[date="2026-07-02"]', rowId: 2 }),
      rec(13, 18, { actor: 'web', cardId: 'weight', path: '[date="2026-07-02"]', rowId: 9 }),
      rec(14, 18, { actor: 'web', cardId: 'weight', op: MANIFEST_OP }),
    ];
    const err = undoConflictError((id) => labels[id] ?? id, 16, hits);
    expect(err.status).toBe(409);
    expect(err.code).toBe('UNDO_CONFLICT');
    expect(err.message).toBe(
      'Change 16 cannot be undone: what it changed was changed again since (' +
        'Steps: 2 rows by Health Auto Export at 2026-12-03T10:00:00.000Z (change 17); ' +
        'Weight: its settings and row [date="2026-07-02"] by web at 2026-12-03T10:00:00.000Z (change 18)' +
        '). Nothing was undone.',
    );
  });

  it('counts the sets beyond the shown ones, not their records', () => {
    const hits = Array.from({ length: 8 }, (_, i) => rec(20 + i, 30 + i, { path: `[index=${i}]`, rowId: i }));
    const twice = [...hits, ...hits.map((h) => ({ ...h, id: h.id + 100 }))];
    expect(undoConflictError((id) => id, 29, twice).message).toContain(', and 3 more). Nothing was undone.');
  });
});
