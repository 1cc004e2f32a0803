import { describe, expect, it } from 'vitest';
import { ResendGuard } from './resend-guard.js';
import { type AppliedWrite, canonicalJson, describeWrite, listChanges } from './writes.js';

const append = describeWrite(
  'append_row',
  { id: 'water', value: { ml: 250, date: 'd' } },
  '{"added":1}',
) as AppliedWrite;

describe('resend guard', () => {
  it('hands back each remembered write once, for the same message only, within the window', () => {
    let now = 0;
    const guard = new ResendGuard(1000, () => now);
    const key = ResendGuard.keyOf('c1', 'log water');
    guard.remember(key, [append, append]);
    expect(guard.begin(ResendGuard.keyOf('c2', 'log water')).replay(append.key)).toBeUndefined();
    guard.remember(key, [append, append]);
    const turn = guard.begin(key);
    // the same arguments in another key order are the same call
    const again = `append_row ${canonicalJson({ value: { date: 'd', ml: 250 }, id: 'water' })}`;
    expect(turn.replay(again)?.content).toBe('{"added":1}');
    expect(turn.replay(again)).toBeDefined();
    expect(turn.replay(again)).toBeUndefined();
    guard.remember(key, [append]);
    now = 2000;
    expect(guard.begin(key).replay(append.key)).toBeUndefined();
  });

  it('reads are not writes; changes are listed in plain words', () => {
    expect(describeWrite('read_manifest_rows', { id: 'water' }, '{}')).toBeUndefined();
    const hide = describeWrite('hide_card', { id: 'mood' }, '{}');
    expect(listChanges([append, append, hide as AppliedWrite])).toBe(
      'added a row to "water" (2 times) and hid the card "mood"',
    );
  });
});
