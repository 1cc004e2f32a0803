import { describe, expect, it } from 'vitest';
import type { StateFile } from './notification-state.js';
import { adoptChoices, checkChoices, choicesOf } from './reminder-choices.js';

const state = (): StateFile => ({
  items: {
    'bp#evening': { enabled: true, trigger: '{"daily":"20:30"}', lastSlot: '2026-04-01T20:30' },
    'bp#morning': { privacy: 'public', trigger: '{"daily":"07:00"}', lastSlot: '2026-04-02T07:00' },
    'mood#check': { enabled: true, trigger: '{"daily":"21:00"}' },
  },
  quiet_hours: { start: '22:00', end: '07:00' },
  paused_until: null,
  recent_fires: [],
});

describe('choicesOf', () => {
  it('keeps on/off and privacy only, in id order, without the scheduler memory', () => {
    const s = state();
    s.items['a#x'] = { lastSlot: '2026-04-01T08:00' };
    expect(choicesOf(s)).toEqual({
      items: {
        'bp#evening': { enabled: true },
        'bp#morning': { privacy: 'public' },
        'mood#check': { enabled: true },
      },
      quiet_hours: { start: '22:00', end: '07:00' },
      paused_until: null,
    });
    expect(Object.keys(choicesOf(s).items)).toEqual(['bp#evening', 'bp#morning', 'mood#check']);
  });
});

describe('adoptChoices', () => {
  it('replaces the choices of the cards taken, and leaves other cards alone', () => {
    const s = state();
    const changed = adoptChoices(
      s,
      { items: { 'bp#morning': { enabled: true } }, quiet_hours: null, paused_until: null },
      ['bp'],
      false,
    );
    expect(changed).toBe(true);
    // not named: back to the card's default; its memory goes, so switched on later it waits
    expect(s.items['bp#evening']).toEqual({ lastSlot: '2026-04-01T20:30' });
    // switched on: its memory goes (it waits for its next slot); its privacy is the archive's
    expect(s.items['bp#morning']).toEqual({ enabled: true, lastSlot: '2026-04-02T07:00' });
    expect(s.items['mood#check']).toEqual({ enabled: true, trigger: '{"daily":"21:00"}' });
    // only a whole home brings quiet hours and the pause
    expect(s.quiet_hours).toEqual({ start: '22:00', end: '07:00' });
  });

  it('keeps the memory of a reminder whose on/off stays, and brings quiet hours for a whole home', () => {
    const s = state();
    const pause = '2027-01-01T00:00:00.000Z';
    adoptChoices(
      s,
      {
        items: { 'bp#evening': { enabled: true, privacy: 'public' }, 'bp#morning': { privacy: 'public' } },
        quiet_hours: null,
        paused_until: pause,
      },
      ['bp', 'mood'],
      true,
    );
    expect(s.items['bp#evening']).toEqual({
      enabled: true,
      privacy: 'public',
      trigger: '{"daily":"20:30"}',
      lastSlot: '2026-04-01T20:30',
    });
    // a card taken whose archive names none of its reminders: every one back to its default
    expect(s.items['mood#check']).toEqual({});
    expect(s.quiet_hours).toBeNull();
    expect(s.paused_until).toBe(pause);
  });

  it("says nothing changed when the choices are already the home's", () => {
    const s = state();
    expect(adoptChoices(s, choicesOf(s), ['bp', 'mood'], true)).toBe(false);
  });
});

describe('checkChoices', () => {
  it('takes what an export writes', () => {
    const r = checkChoices({
      items: { 'bp#evening': { enabled: false, privacy: 'private' } },
      quiet_hours: { start: '23:00', end: '06:00' },
      paused_until: '2027-01-01T00:00:00Z',
    });
    expect(r).toEqual({
      choices: {
        items: { 'bp#evening': { enabled: false, privacy: 'private' } },
        quiet_hours: { start: '23:00', end: '06:00' },
        paused_until: '2027-01-01T00:00:00.000Z',
      },
    });
  });

  it('names every field that holds something else', () => {
    const r = checkChoices({
      items: { nohash: {}, 'bp#e': { enabled: 1, privacy: 'secret', lastSlot: 'x' } },
      quiet_hours: { start: '07:00', end: '07:00' },
      paused_until: 'soon',
      extra: true,
    });
    expect('problems' in r && r.problems.map((p) => p.path)).toEqual([
      'items.nohash',
      'items.bp#e.enabled',
      'items.bp#e.privacy',
      'items.bp#e.lastSlot',
      'quiet_hours',
      'paused_until',
      'extra',
    ]);
    expect(checkChoices([])).toEqual({ problems: [{ path: '', message: 'must be an object' }] });
  });
});
