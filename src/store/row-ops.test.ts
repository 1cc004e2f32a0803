import { describe, expect, it } from 'vitest';
import { KlebbError, RowError, type RowErrorCode } from '../errors.js';
import {
  appendRow,
  matchesFilter,
  mergePatch,
  readRows,
  removeRow,
  reorderRows,
  resolveTarget,
  selectElement,
  splitRootFilter,
  updateRow,
} from './row-ops.js';
import { parseRowPath } from './row-path.js';

/** A card-shaped data block: an object holding an array of supplements with nested doses. */
const supplements = () => ({
  title: 'Supplements',
  items: [
    { name: 'Vitamin D', dose: 2000, doses: [{ at: '08:00' }], active: true },
    { name: 'Magnesium', dose: 400, doses: [], active: false },
    { name: 'Omega 3', dose: '85', doses: [], active: 1 },
  ],
});

/** A dated, array-rooted data block with `n` rows, oldest first. */
const dated = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ date: `2026-04-${String(i + 1).padStart(2, '0')}`, value: i + 1 }));

/** Runs `fn` expecting a RowError with `code`; returns it. */
function rowError(code: RowErrorCode, fn: () => unknown): RowError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(RowError);
    expect((e as RowError).rowCode).toBe(code);
    return e as RowError;
  }
  throw new Error(`expected ${code}`);
}

const at = (doc: unknown, path: string) => resolveTarget(doc, parseRowPath(path), path, 'card-1');

describe('resolveTarget', () => {
  it('the empty path is the whole data block', () => {
    const doc = supplements();
    expect(at(doc, '')).toBe(doc);
    expect(at(null, '')).toBe(null);
  });

  it('follows keys, filters and indexes', () => {
    const doc = supplements();
    expect(at(doc, 'title')).toBe('Supplements');
    expect(at(doc, 'items[name="Vitamin D"].doses')).toEqual([{ at: '08:00' }]);
    expect(at(doc, 'items[name="Vitamin D"].doses[index=0].at')).toBe('08:00');
    expect(at(doc, "items[name='Magnesium'].dose")).toBe(400);
    expect(at(doc, 'items[dose=2000].name')).toBe('Vitamin D');
    expect(at(doc, 'items[active=false].name')).toBe('Magnesium');
  });

  it('a leading filter or index selects from an array-rooted block', () => {
    const doc = dated(3);
    expect(at(doc, '[date="2026-04-02"].value')).toBe(2);
    expect(at(doc, '[index=0].value')).toBe(1);
  });

  it('negative indexes count from the end', () => {
    const doc = dated(3);
    expect(at(doc, '[index=-1].value')).toBe(3);
    expect(at(doc, '[index=-3].value')).toBe(1);
  });

  it('filters compare strictly: "85" is not 85, 1 is not true', () => {
    const doc = supplements();
    expect(at(doc, 'items[dose="85"].name')).toBe('Omega 3');
    const e = rowError('NO_MATCH', () => at(doc, 'items[dose=85]'));
    expect(e.message).toContain('compare types');
    expect(at(doc, 'items[active=true].name')).toBe('Vitamin D');
    expect(at(doc, 'items[active=1].name')).toBe('Omega 3');
    expect(matchesFilter({ a: '1' }, 'a', 1)).toBe(false);
    expect(matchesFilter({ a: 0 }, 'a', false)).toBe(false);
    expect(matchesFilter({ a: 1 }, 'a', 1)).toBe(true);
  });

  it('filters skip non-objects and inherited properties', () => {
    expect(matchesFilter([1], 'length', 1)).toBe(false);
    expect(matchesFilter('x', 'length', 1)).toBe(false);
    expect(matchesFilter(null, 'a', 1)).toBe(false);
    // a filter on a prototype key is refused outright (row-path FORBIDDEN_KEYS)
    rowError('BAD_PATH', () => at([{}], '[constructor="Object"]'));
    rowError('NO_MATCH', () => at({}, 'toString'));
  });

  it('NO_MATCH: missing key, unmatched filter, index out of range', () => {
    const doc = supplements();
    const e = rowError('NO_MATCH', () => at(doc, 'items[name="Zinc"].dose'));
    expect(e.message).toContain('[name="Zinc"]');
    expect(e.message).toContain("'items'");
    expect(rowError('NO_MATCH', () => at(doc, 'itemz')).message).toContain('keys: "title", "items"');
    expect(rowError('NO_MATCH', () => at(doc, 'items[index=3]')).message).toContain('3 elements');
    rowError('NO_MATCH', () => at(doc, 'items[index=-4]'));
    rowError('NO_MATCH', () => at([], '[index=0]'));
  });

  it('AMBIGUOUS: a filter matching several elements, naming their positions', () => {
    const doc = [
      { date: '2026-04-20', v: 1 },
      { date: '2026-04-21', v: 2 },
      { date: '2026-04-20', v: 3 },
    ];
    const e = rowError('AMBIGUOUS', () => at(doc, '[date="2026-04-20"]'));
    expect(e.status).toBe(409);
    expect(e.message).toContain('positions 0, 2');
    expect(e.message).toContain('[index=N]');
  });

  it('WRONG_TYPE: filter/index on a non-array, key on a non-object', () => {
    const doc = supplements();
    rowError('WRONG_TYPE', () => at(doc, 'title[index=0]'));
    rowError('WRONG_TYPE', () => at(doc, '[name="x"]'));
    expect(rowError('WRONG_TYPE', () => at(doc, 'items.name')).message).toContain('select an element first');
    expect(rowError('WRONG_TYPE', () => at(doc, 'items.0')).message).toContain('[index=0]');
    rowError('WRONG_TYPE', () => at(doc, 'title.length'));
    rowError('WRONG_TYPE', () => at(null, 'a'));
    // a filter selects one element; a second bracket would filter that element, not the array
    rowError('WRONG_TYPE', () => at(doc, 'items[name="Vitamin D"][active=true]'));
  });

  it('errors carry status, code, path text and card id', () => {
    const e = rowError('NO_MATCH', () => at(supplements(), 'items[name="Zinc"]'));
    expect(e).toBeInstanceOf(KlebbError);
    expect(e.status).toBe(404);
    expect(e.code).toBe('NO_MATCH');
    expect(e.extra).toEqual({ path: 'items[name="Zinc"]', id: 'card-1' });
  });
});

describe('readRows', () => {
  const read = (doc: unknown, path: string, opts = {}) => readRows(doc, parseRowPath(path), path, opts, 'c');

  it('an array of at most 10: all rows, newest first, not truncated', () => {
    expect(read(dated(3), '')).toEqual({
      rows: [dated(3)[2], dated(3)[1], dated(3)[0]],
      total: 3,
      truncated: false,
      window: { order: 'desc', offset: 0, limit: 10 },
    });
  });

  it('an array longer than 10: the newest 10 and truncated', () => {
    const r = read(dated(25), '');
    if (!('rows' in r)) throw new Error('expected rows');
    expect(r.total).toBe(25);
    expect(r.truncated).toBe(true);
    expect(r.rows.map((x) => (x as { value: number }).value)).toEqual([
      25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
    ]);
  });

  it('asc, offset and limit', () => {
    const values = (opts: object) => {
      const r = read(dated(25), '', opts);
      if (!('rows' in r)) throw new Error('expected rows');
      return r.rows.map((x) => (x as { value: number }).value);
    };
    expect(values({ order: 'asc', limit: 3 })).toEqual([1, 2, 3]);
    expect(values({ order: 'asc', offset: 23 })).toEqual([24, 25]);
    expect(values({ order: 'desc', offset: 2, limit: 2 })).toEqual([23, 22]);
    expect(values({ offset: 30 })).toEqual([]);
    expect(values({ limit: 0 })).toEqual([]);
    expect(read(dated(25), '', { order: 'asc', limit: 100 })).toMatchObject({ truncated: false, total: 25 });
  });

  it('clamps the limit to MAX_ROW_WINDOW and rejects bad options', () => {
    expect(read(dated(2), '', { limit: 1_000_000 })).toMatchObject({ window: { limit: 1000 } });
    for (const opts of [{ limit: -1 }, { offset: 1.5 }, { order: 'newest' }]) {
      expect(() => read(dated(2), '', opts)).toThrow(KlebbError);
    }
  });

  it('reads a nested array', () => {
    expect(read(supplements(), 'items[name="Vitamin D"].doses')).toMatchObject({
      rows: [{ at: '08:00' }],
      total: 1,
    });
  });

  it('an object: {row} with nested arrays longer than 10 omitted, at any depth', () => {
    const doc = { profile: { name: 'A', tags: ['x', 'y'], log: dated(11), deep: [{ list: dated(12) }] } };
    expect(read(doc, 'profile')).toEqual({
      row: {
        name: 'A',
        tags: ['x', 'y'],
        log: { omittedArray: true, count: 11 },
        deep: [{ list: { omittedArray: true, count: 12 } }],
      },
    });
    expect(read({ a: dated(10) }, '')).toEqual({ row: { a: dated(10) } });
  });

  it('a primitive or null: {value}', () => {
    expect(read(supplements(), 'title')).toEqual({ value: 'Supplements' });
    expect(read({ a: null }, 'a')).toEqual({ value: null });
    expect(read(7, '')).toEqual({ value: 7 });
  });

  it('returns copies, not the input rows', () => {
    const doc = dated(2);
    const r = read(doc, '');
    if (!('rows' in r)) throw new Error('expected rows');
    (r.rows[0] as { value: number }).value = 99;
    expect(doc).toEqual(dated(2));
  });

  it('throws path errors', () => {
    rowError('NO_MATCH', () => read(supplements(), 'nope'));
  });
});

describe('appendRow', () => {
  const append = (doc: unknown, path: string, value: unknown) =>
    appendRow(doc, parseRowPath(path), value, path, 'c');

  it('appends to an array-rooted block and to a nested array', () => {
    expect(append(dated(2), '', { date: '2026-04-03', value: 3 })).toEqual({ doc: dated(3), totalAfter: 3 });
    const r = append(supplements(), 'items[name="Vitamin D"].doses', { at: '20:00' });
    expect(r.totalAfter).toBe(2);
    expect(resolveTarget(r.doc, parseRowPath('items[index=0].doses[index=-1]'), '')).toEqual({ at: '20:00' });
  });

  it('creates the array when the last key is missing (or null) on an object', () => {
    expect(append({ a: 1 }, 'rows', 'x')).toEqual({ doc: { a: 1, rows: ['x'] }, totalAfter: 1 });
    expect(append({ rows: null }, 'rows', 'x')).toEqual({ doc: { rows: ['x'] }, totalAfter: 1 });
    expect(append(supplements(), 'items[name="Magnesium"].notes', 'n').doc).toMatchObject({
      items: [{}, { notes: ['n'] }, {}],
    });
  });

  it('an empty path on a null or undefined block creates [value]', () => {
    expect(append(null, '', { v: 1 })).toEqual({ doc: [{ v: 1 }], totalAfter: 1 });
    expect(append(undefined, '', 5)).toEqual({ doc: [5], totalAfter: 1 });
  });

  it('WRONG_TYPE when the target is not an array', () => {
    rowError('WRONG_TYPE', () => append({ a: 1 }, '', 'x'));
    rowError('WRONG_TYPE', () => append(supplements(), 'title', 'x'));
    rowError('WRONG_TYPE', () => append(supplements(), 'items[index=0]', 'x'));
    rowError('WRONG_TYPE', () => append('text', '', 'x'));
  });

  it('does not create arrays through missing intermediate keys', () => {
    rowError('NO_MATCH', () => append({}, 'a.b', 'x'));
  });

  it('does not change the input, nor alias the appended value', () => {
    const doc = supplements();
    const value = { at: '12:00' };
    const r = append(doc, 'items[name="Vitamin D"].doses', value);
    expect(doc).toEqual(supplements());
    value.at = 'changed';
    expect(resolveTarget(r.doc, parseRowPath('items[index=0].doses[index=1].at'), '')).toBe('12:00');
  });

  it('a key named __proto__ is refused (BAD_PATH): data holding it could not be sent back as JSON', () => {
    rowError('BAD_PATH', () => append({}, '__proto__', 1));
    rowError('BAD_PATH', () => append([{}], '[index=0].constructor', 1));
  });

  it('rejects an undefined value', () => {
    expect(() => append([], '', undefined)).toThrow(KlebbError);
  });
});

describe('updateRow', () => {
  const update = (doc: unknown, path: string, changes: unknown) =>
    updateRow(doc, parseRowPath(path), changes, path, 'c');

  it('merge-patches the selected object and returns it as after', () => {
    const r = update(supplements(), 'items[name="Vitamin D"]', { dose: 4000, doses: null, note: { x: 1 } });
    expect(r.after).toEqual({ name: 'Vitamin D', dose: 4000, active: true, note: { x: 1 } });
    expect((r.doc as ReturnType<typeof supplements>).items[0]).toBe(r.after);
    expect((r.doc as ReturnType<typeof supplements>).items[1]).toEqual(supplements().items[1]);
  });

  it('patches the root object with an empty path, and rows of an array-rooted block', () => {
    expect(update({ a: 1, b: 2 }, '', { b: null, c: 3 }).doc).toEqual({ a: 1, c: 3 });
    const r = update(dated(3), '[index=-1]', { value: 30 });
    expect(r.after).toEqual({ date: '2026-04-03', value: 30 });
  });

  it('does not change the input', () => {
    const doc = supplements();
    const changes = { note: { x: [1] } };
    const r = update(doc, 'items[index=1]', changes);
    expect(doc).toEqual(supplements());
    changes.note.x.push(2);
    expect(r.after.note).toEqual({ x: [1] });
  });

  it('WRONG_TYPE when changes is not an object or the target is not one', () => {
    for (const changes of [null, [1], 'x', 3, undefined]) {
      rowError('WRONG_TYPE', () => update(supplements(), 'items[index=0]', changes));
    }
    rowError('WRONG_TYPE', () => update(supplements(), 'title', { a: 1 }));
    rowError('WRONG_TYPE', () => update(supplements(), 'items', { a: 1 }));
    rowError('WRONG_TYPE', () => update(null, '', { a: 1 }));
  });

  it('passes on path errors', () => {
    rowError('NO_MATCH', () => update(supplements(), 'items[name="Zinc"]', { a: 1 }));
    rowError('AMBIGUOUS', () => update([{ d: 1 }, { d: 1 }], '[d=1]', { a: 1 }));
  });
});

describe('removeRow', () => {
  const remove = (doc: unknown, path: string) => removeRow(doc, parseRowPath(path), path, 'c');

  it('removes the element a filter selects', () => {
    const r = remove(supplements(), 'items[name="Magnesium"]');
    expect(r.removed).toBe(1);
    expect(r.row).toEqual(supplements().items[1]);
    expect(r.totalAfter).toBe(2);
    expect((r.doc as ReturnType<typeof supplements>).items.map((x) => x.name)).toEqual([
      'Vitamin D',
      'Omega 3',
    ]);
  });

  it('removes by index, negative from the end, also at the root', () => {
    const r = remove(dated(3), '[index=-1]');
    expect(r).toEqual({ doc: dated(2), removed: 1, row: dated(3)[2], totalAfter: 2 });
    expect(remove(dated(3), '[date="2026-04-01"]').doc).toEqual(dated(3).slice(1));
  });

  it('removes from a nested array', () => {
    const r = remove(supplements(), 'items[name="Vitamin D"].doses[at="08:00"]');
    expect(r.totalAfter).toBe(0);
  });

  it('does not change the input', () => {
    const doc = dated(3);
    remove(doc, '[index=0]');
    expect(doc).toEqual(dated(3));
  });

  it('WRONG_TYPE unless the last segment selects an array element', () => {
    rowError('WRONG_TYPE', () => remove(supplements(), ''));
    expect(rowError('WRONG_TYPE', () => remove(supplements(), 'items[index=0].name')).message).toContain(
      '"name"',
    );
    rowError('WRONG_TYPE', () => remove(supplements(), 'title[index=0]'));
  });

  it('NO_MATCH and AMBIGUOUS on the selected element', () => {
    rowError('NO_MATCH', () => remove(dated(3), '[date="2027-01-01"]'));
    rowError('NO_MATCH', () => remove(dated(3), '[index=3]'));
    rowError('AMBIGUOUS', () => remove([{ d: 1 }, { d: 1 }], '[d=1]'));
  });
});

describe('reorderRows', () => {
  const reorder = (doc: unknown, path: string, key: string, order: (string | number | boolean)[]) =>
    reorderRows(doc, parseRowPath(path), key, order, path, 'c');
  const names = (doc: unknown) => (doc as ReturnType<typeof supplements>).items.map((x) => x.name);

  it('rearranges elements to follow the order and counts the ones that moved', () => {
    const r = reorder(supplements(), 'items', 'name', ['Omega 3', 'Vitamin D', 'Magnesium']);
    expect(names(r.doc)).toEqual(['Omega 3', 'Vitamin D', 'Magnesium']);
    expect(r.reordered).toBe(3);
    expect(reorder(supplements(), 'items', 'name', ['Vitamin D', 'Omega 3', 'Magnesium']).reordered).toBe(2);
  });

  it('an order equal to the current one moves nothing', () => {
    const r = reorder(supplements(), 'items', 'name', ['Vitamin D', 'Magnesium', 'Omega 3']);
    expect(r.reordered).toBe(0);
    expect(r.doc).toEqual(supplements());
  });

  it('works on the root array, with number and boolean keys, and on an empty array', () => {
    expect(reorder(dated(3), '', 'value', [3, 1, 2]).doc).toEqual([dated(3)[2], dated(3)[0], dated(3)[1]]);
    expect(reorder([{ k: true }, { k: false }], '', 'k', [false, true]).doc).toEqual([
      { k: false },
      { k: true },
    ]);
    expect(reorder([], '', 'k', [])).toEqual({ doc: [], reordered: 0 });
  });

  it('does not change the input', () => {
    const doc = supplements();
    reorder(doc, 'items', 'name', ['Omega 3', 'Vitamin D', 'Magnesium']);
    expect(doc).toEqual(supplements());
  });

  it('ORDER_MISMATCH: a value missing from order', () => {
    const e = rowError('ORDER_MISMATCH', () =>
      reorder(supplements(), 'items', 'name', ['Omega 3', 'Vitamin D']),
    );
    expect(e.status).toBe(422);
    expect(e.message).toContain('missing from order: "Magnesium"');
  });

  it('ORDER_MISMATCH: an extra value', () => {
    const e = rowError('ORDER_MISMATCH', () =>
      reorder(supplements(), 'items', 'name', ['Omega 3', 'Vitamin D', 'Magnesium', 'Zinc']),
    );
    expect(e.message).toContain('not in the data: "Zinc"');
  });

  it('ORDER_MISMATCH: a value listed twice', () => {
    const e = rowError('ORDER_MISMATCH', () =>
      reorder(supplements(), 'items', 'name', ['Omega 3', 'Vitamin D', 'Magnesium', 'Omega 3']),
    );
    expect(e.message).toContain('listed more than once in order: "Omega 3"');
  });

  it('ORDER_MISMATCH: key values that are not unique in the data', () => {
    const doc = [{ d: 'a' }, { d: 'b' }, { d: 'a' }];
    const e = rowError('ORDER_MISMATCH', () => reorder(doc, '', 'd', ['a', 'b']));
    expect(e.message).toContain('key must be unique');
    expect(e.message).toContain('"a"');
  });

  it('ORDER_MISMATCH: elements without a usable key value', () => {
    const doc = [{ d: 'a' }, { e: 'b' }, 'plain', { d: { nested: 1 } }, { d: null }];
    const e = rowError('ORDER_MISMATCH', () => reorder(doc, '', 'd', ['a']));
    expect(e.message).toContain('positions 1, 2, 3, 4');
  });

  it('ORDER_MISMATCH: values are compared strictly', () => {
    const e = rowError('ORDER_MISMATCH', () => reorder(dated(2), '', 'value', ['1', 2]));
    expect(e.message).toContain('missing from order: 1');
    expect(e.message).toContain('not in the data: "1"');
  });

  it('ORDER_MISMATCH names a few values, each cut short, and counts the rest', () => {
    const doc = [{ k: 'a' }];
    const extra = ['x'.repeat(100_000), ...Array.from({ length: 5000 }, (_, i) => `extra-${i}`)];
    const e = rowError('ORDER_MISMATCH', () => reorder(doc, '', 'k', ['a', ...extra]));
    expect(e.message.length).toBeLessThan(1000);
    expect(e.message).toContain('"extra-0"');
    expect(e.message).toContain(`and ${extra.length - 10} more`);
  });

  it('ORDER_MISMATCH lists every kind of problem at once', () => {
    const doc = [{ k: 1 }, { k: 2 }, { k: 2 }, { k: 3 }];
    const e = rowError('ORDER_MISMATCH', () => reorder(doc, '', 'k', [1, 1, 2, 9]));
    expect(e.message).toMatch(
      /missing from order: 3.*not in the data: 9.*more than once in order: 1.*unique\): 2/,
    );
  });

  it('WRONG_TYPE when the target is not an array; path errors pass on', () => {
    rowError('WRONG_TYPE', () => reorder(supplements(), '', 'name', []));
    rowError('WRONG_TYPE', () => reorder(supplements(), 'title', 'name', []));
    rowError('NO_MATCH', () => reorder(supplements(), 'nope', 'name', []));
  });
});

describe('mergePatch (RFC 7396)', () => {
  // RFC 7396 Appendix A, every row of the table.
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('%j + %j = %j', (target, patch, result) => {
    expect(mergePatch(target, patch)).toEqual(result);
  });

  it('the RFC 7396 §3 example', () => {
    const target = {
      title: 'Goodbye!',
      author: { givenName: 'John', familyName: 'Doe' },
      tags: ['example', 'sample'],
      content: 'This will be unchanged',
    };
    const patch = {
      title: 'Hello!',
      phoneNumber: '+01-123-456-7890',
      author: { familyName: null },
      tags: ['example'],
    };
    expect(mergePatch(target, patch)).toEqual({
      title: 'Hello!',
      author: { givenName: 'John' },
      tags: ['example'],
      content: 'This will be unchanged',
      phoneNumber: '+01-123-456-7890',
    });
  });

  it('changes neither input and shares no objects with them', () => {
    const target = { a: { b: 1 }, keep: { deep: [1] } };
    const patch = { a: { c: 2 }, list: [{ x: 1 }] };
    const out = mergePatch(target, patch);
    expect(target).toEqual({ a: { b: 1 }, keep: { deep: [1] } });
    expect(patch).toEqual({ a: { c: 2 }, list: [{ x: 1 }] });
    expect(out.keep).not.toBe(target.keep);
    expect(out.list).not.toBe(patch.list);
  });

  it('a __proto__ member is an own key, never a prototype change', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}}');
    const out = mergePatch({}, patch);
    expect(Object.hasOwn(out as object, '__proto__')).toBe(true);
    expect((out as { polluted?: boolean }).polluted).toBeUndefined();
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe('splitRootFilter and selectElement', () => {
  it('splits off a leading filter or index', () => {
    expect(splitRootFilter(parseRowPath('[date="2026-04-20"].mood'))).toEqual({
      root: { kind: 'filter', key: 'date', value: '2026-04-20' },
      rest: [{ kind: 'key', key: 'mood' }],
    });
    expect(splitRootFilter(parseRowPath('[index=-1]'))).toEqual({
      root: { kind: 'index', index: -1 },
      rest: [],
    });
  });

  it('leaves a path that starts with a key, or is empty, alone', () => {
    expect(splitRootFilter(parseRowPath('items[index=0]'))).toEqual({
      root: null,
      rest: parseRowPath('items[index=0]'),
    });
    expect(splitRootFilter([])).toEqual({ root: null, rest: [] });
  });

  it('applying rest to the selected element equals resolving the whole path', () => {
    const doc = [
      { date: '2026-04-19', tags: ['a'] },
      { date: '2026-04-20', tags: ['b'] },
    ];
    const path = '[date="2026-04-20"].tags';
    const { root, rest } = splitRootFilter(parseRowPath(path));
    if (!root) throw new Error('expected a root selector');
    const el = doc[selectElement(doc, root, path, 'c')];
    expect(appendRow(el, rest, 'c', path).doc).toEqual({ date: '2026-04-20', tags: ['b', 'c'] });
    expect(resolveTarget(el, rest, path)).toEqual(resolveTarget(doc, parseRowPath(path), path));
  });

  it('selectElement uses the same rules and errors', () => {
    const doc = dated(3);
    expect(selectElement(doc, { kind: 'index', index: -1 }, '[index=-1]')).toBe(2);
    rowError('NO_MATCH', () => selectElement(doc, { kind: 'filter', key: 'date', value: 'x' }, ''));
    rowError('AMBIGUOUS', () =>
      selectElement([{ a: 1 }, { a: 1 }], { kind: 'filter', key: 'a', value: 1 }, ''),
    );
    rowError('WRONG_TYPE', () => selectElement({}, { kind: 'index', index: 0 }, ''));
  });
});
