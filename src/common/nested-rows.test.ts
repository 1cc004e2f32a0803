import { describe, expect, it } from 'vitest';
import { rowsWithin } from './nested-rows.js';

describe('rowsWithin', () => {
  it('reads the one list of rows an object holds, or the rows of its groups with their names', () => {
    expect(rowsWithin({ lab: 'X', findings: [{ a: 1 }, { a: 2 }] })).toEqual([{ a: 1 }, { a: 2 }]);
    expect(
      rowsWithin({
        collected: '2026-04-01',
        categories: [
          { name: 'Lipids', findings: [{ label: 'HDL' }, { label: 'LDL', category: 'own' }] },
          { label: 'Liver', findings: [{ label: 'ALT' }] },
        ],
      }),
    ).toEqual([
      { category: 'Lipids', label: 'HDL' },
      { label: 'LDL', category: 'own' },
      { category: 'Liver', label: 'ALT' },
    ]);
  });

  it('is null when there is no single list to read', () => {
    expect(rowsWithin([{ a: 1 }])).toBeNull();
    expect(rowsWithin({ markdown: '# x' })).toBeNull();
    expect(rowsWithin({ a: [{ x: 1 }], b: [{ y: 2 }] })).toBeNull();
    expect(rowsWithin({ tags: ['a', 'b'] })).toBeNull();
  });
});
