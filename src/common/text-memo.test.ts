import { describe, expect, it } from 'vitest';
import { textMemo } from './text-memo.js';

describe('textMemo', () => {
  it('works each text out once, undefined and null answers included', () => {
    const calls: string[] = [];
    const memo = textMemo((t) => {
      calls.push(t);
      return t === 'none' ? undefined : t === 'null' ? null : t.length;
    });
    expect([memo('ab'), memo('ab'), memo('none'), memo('none'), memo('null'), memo('null')]).toEqual([
      2,
      2,
      undefined,
      undefined,
      null,
      null,
    ]);
    expect(calls).toEqual(['ab', 'none', 'null']);
  });

  it('holds at most `max` texts: a full table is cleared, answers stay right', () => {
    const calls: string[] = [];
    const memo = textMemo((t) => {
      calls.push(t);
      return t.toUpperCase();
    }, 2);
    expect(['a', 'b', 'c', 'a', 'c'].map(memo)).toEqual(['A', 'B', 'C', 'A', 'C']);
    // 'c' cleared the table holding a and b; 'a' then is worked out again, 'c' is still known
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });
});
