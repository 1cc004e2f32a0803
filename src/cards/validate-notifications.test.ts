import { describe, expect, it } from 'vitest';
import { formatPath } from './field-issues.js';
import { checkNotifications } from './validate-notifications.js';

const AT = ['meta', 'notifications'];

function item(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'drink',
    label: 'Drink water',
    title: 'Water',
    body: 'Time for a glass of water.',
    trigger: { type: 'daily', time: '09:30' },
    ...over,
  };
}

function errors(value: unknown) {
  return checkNotifications(value, AT).map((i) => ({ path: formatPath(i.path), message: i.message }));
}

/** The single error for a block holding one item with `over` applied. */
function oneItemError(over: Record<string, unknown>) {
  const e = errors({ items: [item(over)] });
  expect(e).toHaveLength(1);
  expect(e[0].message.startsWith('invalid notifications: ')).toBe(true);
  return e[0];
}

describe('checkNotifications', () => {
  it('accepts absent, empty and full blocks', () => {
    expect(errors(undefined)).toEqual([]);
    expect(errors({})).toEqual([]);
    expect(errors({ enabled: false, items: [] })).toEqual([]);
    expect(
      errors({
        enabled: true,
        items: [
          item(),
          item({ id: 'weekly.1', trigger: { type: 'weekly', time: '23:59', days: ['mon', 'sun'] } }),
          item({
            id: 'meds_am',
            trigger: {
              type: 'schedule_due',
              time: '00:00',
              card: 'medication-schedule',
              time_of_day: 'morning',
            },
            action: { type: 'open-card', card: 'medication-schedule', intent: 'log' },
            privacy: 'public',
            default: 'off',
            futureField: { anything: true },
          }),
        ],
      }),
    ).toEqual([]);
  });

  it('rejects a non-object block and a bad enabled', () => {
    expect(errors('daily')[0].path).toBe('meta.notifications');
    expect(errors({ enabled: 'yes' })[0]).toEqual({
      path: 'meta.notifications.enabled',
      message: 'invalid notifications: meta.notifications.enabled must be a boolean, got "yes"',
    });
    expect(errors({ items: {} })[0].path).toBe('meta.notifications.items');
  });

  it('allows 10 items and rejects 11, dropping the 11th at load', () => {
    const ten = Array.from({ length: 10 }, (_, i) => item({ id: `n${i}` }));
    expect(errors({ items: ten })).toEqual([]);
    const issues = checkNotifications({ items: [...ten, item({ id: 'n10' })] }, AT);
    expect(issues).toHaveLength(1);
    expect(formatPath(issues[0].path)).toBe('meta.notifications.items');
    expect(issues[0].message).toBe(
      'invalid notifications: meta.notifications.items must hold at most 10 items (got 11)',
    );
    expect(issues[0].drops).toEqual([[...AT, 'items', 10]]);
  });

  it('checks the item id pattern and length', () => {
    expect(oneItemError({ id: 'Drink' }).path).toBe('meta.notifications.items[0].id');
    expect(oneItemError({ id: '-x' }).path).toBe('meta.notifications.items[0].id');
    expect(oneItemError({ id: undefined }).path).toBe('meta.notifications.items[0].id');
    expect(errors({ items: [item({ id: 'a'.repeat(64) })] })).toEqual([]);
    expect(oneItemError({ id: 'a'.repeat(65) }).message).toContain('/^[a-z0-9][a-z0-9._-]{0,63}$/');
  });

  it('rejects duplicate ids on the later item', () => {
    const e = errors({ items: [item(), item({ label: 'Other' })] });
    expect(e).toEqual([
      {
        path: 'meta.notifications.items[1].id',
        message:
          'invalid notifications: meta.notifications.items[1].id duplicates the id "drink" of an earlier item',
      },
    ]);
  });

  it('title: 30 characters pass, 31 fail; an emoji counts as one', () => {
    expect(errors({ items: [item({ title: 't'.repeat(30) })] })).toEqual([]);
    expect(errors({ items: [item({ title: 'Ran 10k in the rain, legs ok 🏃' })] })).toEqual([]);
    expect(oneItemError({ title: 't'.repeat(31) })).toEqual({
      path: 'meta.notifications.items[0].title',
      message:
        'invalid notifications: meta.notifications.items[0].title must be at most 30 characters (got 31)',
    });
  });

  it('label and body: 80 characters pass, 81 fail', () => {
    expect(errors({ items: [item({ label: 'l'.repeat(80), body: 'b'.repeat(80) })] })).toEqual([]);
    expect(oneItemError({ label: 'l'.repeat(81) }).path).toBe('meta.notifications.items[0].label');
    expect(oneItemError({ body: 'b'.repeat(81) }).message).toContain(
      'body must be at most 80 characters (got 81)',
    );
  });

  it.each(['label', 'title', 'body'])('%s must be a non-empty string', (key) => {
    for (const v of ['', '   ', undefined, 5]) {
      const e = oneItemError({ [key]: v });
      expect(e.path).toBe(`meta.notifications.items[0].${key}`);
      expect(e.message).toContain('must be a non-empty string');
    }
  });

  it('rejects a lone surrogate in text', () => {
    expect(oneItemError({ title: 'Run \ud83c' }).message).toContain('lone UTF-16 surrogate');
  });

  it('checks triggers', () => {
    expect(oneItemError({ trigger: undefined }).path).toBe('meta.notifications.items[0].trigger');
    expect(oneItemError({ trigger: { type: 'hourly', time: '09:00' } }).path).toBe(
      'meta.notifications.items[0].trigger.type',
    );
    for (const time of ['9:30', '24:00', '12:60', '09:30:00', 930]) {
      expect(oneItemError({ trigger: { type: 'daily', time } }).path).toBe(
        'meta.notifications.items[0].trigger.time',
      );
    }
    for (const days of [undefined, [], ['Mon'], ['mon', 'mon'], ['funday'], 'mon']) {
      expect(oneItemError({ trigger: { type: 'weekly', time: '08:00', days } }).path).toBe(
        'meta.notifications.items[0].trigger.days',
      );
    }
    const due = { type: 'schedule_due', time: '08:00', card: 'meds', time_of_day: 'morning' };
    expect(oneItemError({ trigger: { ...due, card: '' } }).path).toBe(
      'meta.notifications.items[0].trigger.card',
    );
    expect(oneItemError({ trigger: { ...due, time_of_day: 'noon' } }).path).toBe(
      'meta.notifications.items[0].trigger.time_of_day',
    );
  });

  it('checks action, privacy and default', () => {
    expect(oneItemError({ action: 'open' }).path).toBe('meta.notifications.items[0].action');
    expect(oneItemError({ action: { type: 'open-url' } }).path).toBe(
      'meta.notifications.items[0].action.type',
    );
    expect(oneItemError({ action: { type: 'open-card', intent: 'edit' } }).path).toBe(
      'meta.notifications.items[0].action.intent',
    );
    expect(oneItemError({ action: { type: 'open-card', card: 3 } }).path).toBe(
      'meta.notifications.items[0].action.card',
    );
    expect(oneItemError({ privacy: 'secret' }).path).toBe('meta.notifications.items[0].privacy');
    expect(oneItemError({ default: true }).path).toBe('meta.notifications.items[0].default');
  });

  it('drops only the bad item at load (smallest enclosing field)', () => {
    const issues = checkNotifications({ items: [item(), item({ id: 'b', title: '', body: '' })] }, AT);
    expect(issues).toHaveLength(2);
    for (const i of issues) expect(i.drops).toEqual([[...AT, 'items', 1]]);
  });

  it('uses full indexed paths deep in the list', () => {
    const e = errors({
      items: [item({ id: 'a' }), item({ id: 'b' }), item({ id: 'c', title: 'x'.repeat(31) })],
    });
    expect(e[0].path).toBe('meta.notifications.items[2].title');
  });
});
