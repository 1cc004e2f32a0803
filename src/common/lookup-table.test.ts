import { describe, expect, it } from 'vitest';
import { emptyTable, lookupTable } from './lookup-table.js';

describe('lookupTable', () => {
  it('finds its own keys and nothing of Object', () => {
    const t = lookupTable({ kg: 'kilograms' });
    expect(t.kg).toBe('kilograms');
    for (const k of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])
      expect(t[k]).toBeUndefined();
    expect(Object.isFrozen(t)).toBe(true);
  });

  it('an empty table counts outside names as plain keys', () => {
    const counts = emptyTable<number>();
    for (const k of ['constructor', '__proto__', 'constructor']) counts[k] = (counts[k] ?? 0) + 1;
    expect(counts.constructor).toBe(2);
    const proto = '__proto__';
    expect(counts[proto]).toBe(1);
    expect(JSON.parse(JSON.stringify(counts))).toEqual({ constructor: 2, ['__proto__']: 1 });
  });
});
