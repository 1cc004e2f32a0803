import { describe, expect, it } from 'vitest';
import { readHandSpellings } from './hand-spellings.js';
import { asClockTime } from './hand-spellings-notifications.js';

describe('asClockTime', () => {
  it('reads one-digit hours, seconds and am/pm', () => {
    expect(asClockTime('7:30')).toBe('07:30');
    expect(asClockTime('07:30:59')).toBe('07:30');
    expect(asClockTime('12:05 am')).toBe('00:05');
    expect(asClockTime('12:05PM')).toBe('12:05');
    expect(asClockTime('9:15 p.m.')).toBe('21:15');
  });
  it('leaves what has no single reading', () => {
    for (const t of ['7.30', '0730', '24:00', '13:00 pm', '0:30 am', '7:3', 'seven'])
      expect(asClockTime(t)).toBe(t);
  });
});

describe('readHandSpellings', () => {
  it('leaves values it cannot read for the rules to judge', () => {
    const m = {
      meta: {
        id: 'x',
        label: 'X',
        order: 10.5,
        cadence: 'fortnightly',
        ingest: { source: 'fitbit', metric: 'steps' },
        notifications: {
          items: [{ id: 'a', trigger: { type: 'weekly', time: '7:30', days: ['Mon', 'Someday'] } }],
        },
      },
      data: [{ date: '2026-01-01', v: null }],
    };
    readHandSpellings(m);
    expect(m.meta.order).toBe(10.5);
    expect(m.meta.cadence).toBe('fortnightly');
    expect(m.meta.ingest).toEqual({ source: 'fitbit', metric: 'steps' });
    expect(m.meta.notifications.items[0].trigger).toEqual({
      type: 'weekly',
      time: '07:30',
      days: ['Mon', 'Someday'],
    });
    // data is the person's rows: never touched
    expect(m.data).toEqual([{ date: '2026-01-01', v: null }]);
  });

  it('gives ids made from the same label a number', () => {
    const m = {
      meta: {
        id: 'x',
        label: 'X',
        notifications: [
          { id: 'check', label: 'Check', trigger: { time: '08:00' } },
          { label: 'Check', trigger: { time: '09:00' } },
          { label: 'Check', trigger: { time: '10:00' } },
        ],
      },
    };
    readHandSpellings(m);
    const items = (m.meta.notifications as unknown as { items: { id: string; trigger: unknown }[] }).items;
    expect(items.map((i) => i.id)).toEqual(['check', 'check-2', 'check-3']);
    expect(items[1].trigger).toEqual({ type: 'daily', time: '09:00' });
  });
});
