import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATION_STEPS } from '../migration-steps.js';
import { CardDataStore } from './card-data-store.js';
import { closeDatabase, type Db, openDatabase } from './database.js';
import { parseRowPath } from './row-path.js';

let dir: string;
let db: Db;
let store: CardDataStore;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-store-'));
  db = openDatabase(path.join(dir, 'klebb.sqlite'), { steps: MIGRATION_STEPS });
  store = new CardDataStore(db);
});
afterEach(() => {
  closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

const seg = (p: string) => parseRowPath(p);

describe('CardDataStore', () => {
  it('keeps each top-level array element as its own store row', () => {
    store.replace(
      'w',
      [
        { date: '2026-04-20', kg: 80 },
        { date: '2026-04-21', kg: 81 },
      ],
      'test',
    );
    expect(db.prepare('SELECT count(*) FROM card_rows WHERE card_id = ?').pluck().get('w')).toBe(2);
    store.append('w', [], '', { date: '2026-04-22', kg: 82 }, 'test');
    expect(db.prepare('SELECT count(*) FROM card_rows WHERE card_id = ?').pluck().get('w')).toBe(3);
    expect(store.state('w')).toMatchObject({ shape: 'array', rowCount: 3 });
    expect(store.read('w')).toEqual([
      { date: '2026-04-20', kg: 80 },
      { date: '2026-04-21', kg: 81 },
      { date: '2026-04-22', kg: 82 },
    ]);
  });

  it('holds objects, primitives and null as one document, and none as absent', () => {
    store.replace('doc', { markdown: '# hi' }, 'test');
    expect(store.state('doc')).toMatchObject({ shape: 'value', rowCount: 1 });
    store.replace('n', null, 'test');
    expect(store.readJson('n')).toBe('null');
    expect(store.state('n').rowCount).toBe(0);
    expect(store.readJson('never')).toBeUndefined();
    store.replace('doc', undefined, 'test');
    expect(store.readJson('doc')).toBeUndefined();
  });

  it('numbers every change: the version grows, and the change set has before and after', () => {
    const v1 = store.replace('w', [{ date: '2026-04-20', kg: 80 }], 'agent-token');
    const r = store.update('w', seg('[date="2026-04-20"]'), '[date="2026-04-20"]', { kg: 79.5 }, 'web');
    expect(r.version).toBeGreaterThan(v1);
    expect(store.state('w').version).toBe(r.version);
    const [last] = store.changes.recent('w', 1);
    expect(last).toMatchObject({ actor: 'web', op: 'update', path: '[date="2026-04-20"]' });
    expect(JSON.parse(last.before as string)).toEqual({ date: '2026-04-20', kg: 80 });
    expect(JSON.parse(last.after as string)).toEqual({ date: '2026-04-20', kg: 79.5 });
  });

  it('a failing row operation changes nothing and records nothing', () => {
    store.replace('w', [{ date: '2026-04-20', kg: 80 }], 'test');
    const before = store.state('w');
    expect(() =>
      store.update('w', seg('[date="1999-01-01"]'), '[date="1999-01-01"]', { kg: 1 }, 'test'),
    ).toThrow(/no row/);
    expect(() => store.removeRow('w', seg('[kg="80"]'), '[kg="80"]', 'test')).toThrow();
    expect(store.state('w')).toEqual(before);
    expect(store.changes.recent('w', 10)).toHaveLength(1);
  });

  it('an append onto a card with no data starts an array; removing the last row leaves []', () => {
    store.append('fresh', [], '', { a: 1 }, 'test');
    expect(store.read('fresh')).toEqual([{ a: 1 }]);
    expect(store.state('fresh').shape).toBe('array');
    store.removeRow('fresh', seg('[a=1]'), '[a=1]', 'test');
    expect(store.read('fresh')).toEqual([]);
  });

  it('finds rows by date through the index and by other keys strictly', () => {
    store.replace(
      'w',
      [
        { date: '2026-04-20', done: true },
        { date: '2026-04-21', done: 1 },
      ],
      'test',
    );
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT id FROM card_rows WHERE card_id = ? AND json_extract(body, '$.date') = ?`,
      )
      .all('w', '2026-04-20') as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('card_rows_date');
    expect(store.readRows('w', seg('[done=true]'), '[done=true]', {})).toEqual({
      row: { date: '2026-04-20', done: true },
    });
    expect(store.readRows('w', seg('[done=1]'), '[done=1]', {})).toEqual({
      row: { date: '2026-04-21', done: 1 },
    });
  });

  it('prunes change sets older than the window beyond the newest N', () => {
    for (let i = 0; i < 5; i++) store.append('w', [], '', { i }, 'test');
    db.prepare("UPDATE changes SET ts = '2000-01-01T00:00:00.000Z'").run();
    expect(store.changes.prune(90, 2)).toBe(3);
    expect(store.changes.recent('w', 10)).toHaveLength(2);
    expect(store.read('w')).toHaveLength(5);
  });

  it('closing checkpoints the WAL so the main file alone holds every row', () => {
    store.replace(
      'w',
      Array.from({ length: 500 }, (_, i) => ({ i })),
      'test',
    );
    expect(closeDatabase(db).complete).toBe(true);
    const wal = path.join(dir, 'klebb.sqlite-wal');
    expect(!fs.existsSync(wal) || fs.statSync(wal).size === 0).toBe(true);
    const copy = path.join(dir, 'copy.sqlite');
    fs.copyFileSync(path.join(dir, 'klebb.sqlite'), copy);
    const again = openDatabase(copy, { steps: MIGRATION_STEPS });
    expect(again.prepare('SELECT count(*) FROM card_rows').pluck().get()).toBe(500);
    closeDatabase(again);
    db = openDatabase(path.join(dir, 'klebb.sqlite'), { steps: MIGRATION_STEPS });
  });
});

describe('CardDataStore dates', () => {
  it('maxDate walks the date index and skips values that are not dates', () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-store-'));
    const db2 = openDatabase(path.join(d, 'k.sqlite'), { steps: MIGRATION_STEPS });
    const st = new CardDataStore(db2);
    st.replace(
      'w',
      [{ date: '2026-04-19' }, { date: 'unknown' }, { date: '2026-04-21' }, { date: 3 }],
      'test',
    );
    expect(st.maxDate('w', 'date')).toBe('2026-04-21');
    expect(st.countDated('w', 'date', 10)).toBe(2);
    const plan = db2
      .prepare(
        "EXPLAIN QUERY PLAN SELECT json_extract(body, '$.date') FROM card_rows WHERE card_id = ? AND json_extract(body, '$.date') GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' ORDER BY json_extract(body, '$.date') DESC LIMIT 1",
      )
      .all('w') as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('card_rows_date');
    closeDatabase(db2);
    fs.rmSync(d, { recursive: true, force: true });
  });
});

describe('CardDataStore replace keeping unchanged leading rows', () => {
  const rows = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => ({
      date: `2026-01-${String(from + i).padStart(2, '0')}`,
      kg: 80 + i,
    }));
  const ids = (card: string) =>
    db.prepare('SELECT id FROM card_rows WHERE card_id = ? ORDER BY pos').pluck().all(card) as number[];

  it('writes only the rows after the unchanged ones, recorded exactly as a whole replace', () => {
    const twin = 'twin';
    for (const card of ['kept', twin]) {
      store.replace(card, rows(1, 5), 'test');
      // a removed row leaves a gap in the positions
      store.removeRow(card, seg('[date="2026-01-03"]'), '[date="2026-01-03"]', 'test');
    }
    const head = ids('kept');
    const next = [
      ...(store.read('kept') as unknown[]).slice(0, 3),
      { date: '2026-01-10', kg: 1 },
      ...rows(11, 3),
    ];
    store.replace('kept', next, 'hae', 'hae-upsert', 3);
    store.replace(twin, next, 'hae', 'hae-upsert');
    expect(store.read('kept')).toEqual(next);
    expect(store.readJson('kept')).toBe(store.readJson(twin));
    expect(store.state('kept').rowCount).toBe(next.length);
    // the three unchanged rows are the same store rows; the fourth old one was rewritten
    expect(ids('kept').slice(0, 3)).toEqual(head.slice(0, 3));
    expect(ids('kept')).not.toContain(head[3]);
    const [a, b] = [store.changes.recent('kept', 1)[0], store.changes.recent(twin, 1)[0]];
    expect({ op: a.op, before: a.before, after: a.after, rowId: a.rowId }).toEqual({
      op: b.op,
      before: b.before,
      after: b.after,
      rowId: null,
    });
    // later appends go after the last row
    store.append('kept', [], '', { date: '2026-01-20', kg: 2 }, 'test');
    expect((store.read('kept') as { date: string }[]).at(-1)?.date).toBe('2026-01-20');
  });

  it('writes every row when the card holds fewer rows than said unchanged, or no array', () => {
    store.replace('short', rows(1, 2), 'test');
    store.replace('short', rows(1, 6), 'test', 'replace', 5);
    expect(store.read('short')).toEqual(rows(1, 6));
    store.replace('doc', { a: 1 }, 'test');
    store.replace('doc', rows(1, 3), 'test', 'replace', 2);
    expect(store.read('doc')).toEqual(rows(1, 3));
    store.replace('all', rows(1, 3), 'test');
    store.replace('all', rows(1, 3), 'test', 'replace', 3);
    expect(store.read('all')).toEqual(rows(1, 3));
    expect(store.state('all').rowCount).toBe(3);
  });

  it('reads by a filter on any field, and dates of any field, without preparing a statement per call', () => {
    store.replace(
      'w',
      [
        { name: 'a', taken: '2026-04-20', kg: 80 },
        { name: 'b', taken: '2026-04-22', kg: 81 },
      ],
      'test',
    );
    const prepare = db.prepare.bind(db);
    let prepared = 0;
    db.prepare = ((sql: string) => {
      prepared++;
      return prepare(sql);
    }) as typeof db.prepare;
    try {
      for (let i = 0; i < 3; i++) {
        expect(store.readRows('w', seg('[name="b"]'), '[name="b"]', {})).toEqual({
          row: { name: 'b', taken: '2026-04-22', kg: 81 },
        });
        expect(store.maxDate('w', 'taken')).toBe('2026-04-22');
        expect(store.countDated('w', 'taken', 10)).toBe(2);
        store.update('w', seg('[name="a"]'), '[name="a"]', { kg: 79 + i }, 'test');
      }
    } finally {
      db.prepare = prepare;
    }
    expect(prepared).toBe(0);
    expect(store.read('w')).toEqual([
      { name: 'a', taken: '2026-04-20', kg: 81 },
      { name: 'b', taken: '2026-04-22', kg: 81 },
    ]);
  });
});
