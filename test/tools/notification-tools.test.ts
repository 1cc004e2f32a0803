/**
 * set_notification / remove_notification through dispatchToolCall (docs/CHAT-AGENT.md tools table;
 * docs/CHAT-AGENT.md): slug ids, idempotence by (card, id), lastFired cleared on a trigger change,
 * the validator's limits, weekly days, and one-shot confirmation for removal.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manifest, type ToolEnv, toolEnv } from './harness.js';

let t: ToolEnv;
beforeEach(async () => {
  t = await toolEnv();
  const r = await t.call('create_manifest', { manifest: manifest('weight', [], { label: 'Weight' }) });
  expect(r.json.ok).toBe(true);
});
afterEach(async () => {
  await t.close();
});

const daily = { type: 'daily', time: '07:30' };
const base = {
  card_id: 'weight',
  label: 'Morning weigh-in!',
  title: 'Time to weigh in',
  body: 'Step on the scale before breakfast.',
  trigger: daily,
};
const items = () => t.file('weight').meta.notifications?.items ?? [];

describe('set_notification', () => {
  it('creates an item with a slug id from the label', async () => {
    const r = await t.call('set_notification', base);
    expect(r.ok).toBe(true);
    expect(r.cardId).toBe('weight');
    expect(r.json).toEqual({
      ok: true,
      card_id: 'weight',
      notification_id: 'morning-weigh-in',
      created: true,
    });
    expect(items()).toEqual([
      {
        id: 'morning-weigh-in',
        label: 'Morning weigh-in!',
        title: 'Time to weigh in',
        body: 'Step on the scale before breakfast.',
        trigger: daily,
      },
    ]);
    expect(t.touches).toContainEqual({ id: 'weight', flow: 'edit' });
  });

  it('accents in the label are dropped from the id, not turned into dashes', async () => {
    for (const [label, id] of [
      ['Médicament du soir', 'medicament-du-soir'],
      ['Me\u0301dicament NFD', 'medicament-nfd'],
      ['Straße laufen', 'strasse-laufen'],
      ['İlaç saati', 'ilac-saati'],
      ['Øvelse på ærmet', 'ovelse-pa-aermet'],
    ]) {
      const r = await t.call('set_notification', { ...base, label });
      expect(r.json.notification_id, label).toBe(id);
    }
  });

  it('an explicit notification_id and privacy are kept', async () => {
    const r = await t.call('set_notification', { ...base, notification_id: 'am', privacy: 'private' });
    expect(r.json.notification_id).toBe('am');
    expect(items()[0]).toMatchObject({ id: 'am', privacy: 'private' });
  });

  it('is idempotent by (card, id): created:false and no duplicate item', async () => {
    await t.call('set_notification', base);
    const again = await t.call('set_notification', { ...base, title: 'Weigh in now' });
    expect(again.json).toEqual({
      ok: true,
      card_id: 'weight',
      notification_id: 'morning-weigh-in',
      created: false,
    });
    expect(items()).toHaveLength(1);
    expect(items()[0].title).toBe('Weigh in now');
    const third = await t.call('set_notification', { ...base, title: 'Weigh in now' });
    expect(third.json.created).toBe(false);
    expect(items()).toHaveLength(1);
  });

  it('a changed trigger drops a stored lastFired; the same trigger keeps it', async () => {
    await t.call('set_notification', base);
    const stored = { ...items()[0], lastFired: '2026-04-20T07:30' };
    const p = await t.call('patch_manifest', {
      id: 'weight',
      patch: { meta: { notifications: { items: [stored] } } },
    });
    expect(p.json.ok).toBe(true);
    expect(items()[0].lastFired).toBe('2026-04-20T07:30');

    await t.call('set_notification', { ...base, body: 'Weigh yourself before breakfast.' });
    expect(items()[0].lastFired).toBe('2026-04-20T07:30');

    const r = await t.call('set_notification', { ...base, trigger: { type: 'daily', time: '08:00' } });
    expect(r.json.created).toBe(false);
    expect(items()).toHaveLength(1);
    expect(items()[0].trigger).toEqual({ type: 'daily', time: '08:00' });
    expect(items()[0]).not.toHaveProperty('lastFired');
  });

  it('the same trigger written with its keys in another order is not a change (lastFired kept)', async () => {
    await t.call('set_notification', base);
    await t.call('patch_manifest', {
      id: 'weight',
      patch: { meta: { notifications: { items: [{ ...items()[0], lastFired: '2026-04-20T07:30' }] } } },
    });
    await t.call('set_notification', { ...base, trigger: { time: '07:30', type: 'daily' } });
    expect(items()[0].lastFired).toBe('2026-04-20T07:30');
  });

  it('two different labels with no Latin letters get two items, not one overwriting the other', async () => {
    const a = await t.call('set_notification', { ...base, label: 'Утреннее взвешивание' });
    const b = await t.call('set_notification', { ...base, label: '体重を測る' });
    expect(a.json).toMatchObject({ ok: true, created: true });
    expect(b.json).toMatchObject({ ok: true, created: true });
    expect(a.json.notification_id).not.toBe(b.json.notification_id);
    expect(items()).toHaveLength(2);
  });

  it('accented labels fold to ASCII slugs', async () => {
    const r = await t.call('set_notification', { ...base, label: 'Café au lait ☕' });
    expect(r.json.notification_id).toBe('cafe-au-lait');
  });

  it('a 31-character title is an error naming the field, and nothing is written', async () => {
    const r = await t.call('set_notification', { ...base, title: 'x'.repeat(31) });
    expect(r.ok).toBe(false);
    expect(r.json.code).toBe('INVALID');
    expect(r.json.error).toContain('title');
    expect(r.json.details.map((d: { path: string }) => d.path)).toContain(
      'meta.notifications.items[0].title',
    );
    expect(items()).toEqual([]);
    // 30 is allowed
    expect((await t.call('set_notification', { ...base, title: 'x'.repeat(30) })).json.ok).toBe(true);
  });

  it('an 81-character body and label are errors naming the field', async () => {
    const b = await t.call('set_notification', { ...base, body: 'y'.repeat(81) });
    expect(b.json.details.map((d: { path: string }) => d.path)).toContain('meta.notifications.items[0].body');
    const l = await t.call('set_notification', { ...base, notification_id: 'x', label: 'z'.repeat(81) });
    expect(l.json.details.map((d: { path: string }) => d.path)).toContain(
      'meta.notifications.items[0].label',
    );
    expect(items()).toEqual([]);
  });

  it('the 11th item is refused; the 10 stay', async () => {
    for (let i = 1; i <= 10; i++) {
      const r = await t.call('set_notification', { ...base, label: `Reminder ${i}` });
      expect(r.json).toMatchObject({ ok: true, notification_id: `reminder-${i}`, created: true });
    }
    const r = await t.call('set_notification', { ...base, label: 'Reminder 11' });
    expect(r.ok).toBe(false);
    expect(r.json.error).toMatch(/at most 10/);
    expect(r.json.details.map((d: { path: string }) => d.path)).toContain('meta.notifications.items');
    expect(items()).toHaveLength(10);
    // updating one of the 10 still works
    expect(
      (await t.call('set_notification', { ...base, label: 'Reminder 3', title: 'Changed' })).json.created,
    ).toBe(false);
  });

  it('weekly triggers take days; bad or missing days are errors', async () => {
    const r = await t.call('set_notification', {
      ...base,
      label: 'Weekly check',
      trigger: { type: 'weekly', time: '18:00', days: ['mon', 'thu'] },
    });
    expect(r.json).toMatchObject({ ok: true, notification_id: 'weekly-check', created: true });
    expect(items()[0].trigger).toEqual({ type: 'weekly', time: '18:00', days: ['mon', 'thu'] });

    const none = await t.call('set_notification', {
      ...base,
      label: 'No days',
      trigger: { type: 'weekly', time: '18:00' },
    });
    expect(none.ok).toBe(false);
    expect(none.json.details.map((d: { path: string }) => d.path)).toContain(
      'meta.notifications.items[1].trigger.days',
    );
    const bad = await t.call('set_notification', {
      ...base,
      label: 'Bad days',
      trigger: { type: 'weekly', time: '18:00', days: ['monday'] },
    });
    expect(bad.ok).toBe(false);
    const badTime = await t.call('set_notification', {
      ...base,
      label: 'Bad time',
      trigger: { type: 'daily', time: '7:30' },
    });
    expect(badTime.json.details.map((d: { path: string }) => d.path)).toContain(
      'meta.notifications.items[1].trigger.time',
    );
    expect(items()).toHaveLength(1);
  });

  it('an unknown trigger type fails the tool schema; an unknown card is an error', async () => {
    const r = await t.call('set_notification', { ...base, trigger: { type: 'hourly', time: '07:00' } });
    expect(r.ok).toBe(false);
    expect(JSON.stringify(r.json.details)).toContain('trigger');
    const ghost = await t.call('set_notification', { ...base, card_id: 'ghost' });
    expect(ghost.json.code).toBe('CARD_NOT_FOUND');
  });
});

describe('remove_notification', () => {
  beforeEach(async () => {
    await t.call('set_notification', base);
    await t.call('set_notification', { ...base, label: 'Evening' });
  });

  it('asks the person first: declined or expired changes nothing', async () => {
    t.decision = 'declined';
    const no = await t.call('remove_notification', { card_id: 'weight', notification_id: 'evening' });
    expect(no.json).toMatchObject({ ok: false, approved: false, decision: 'declined' });
    expect(t.asked.at(-1)).toMatchObject({
      tool: 'remove_notification',
      summary: 'Remove the reminder “Evening” from “Weight”.',
    });
    t.decision = 'expired';
    const late = await t.call('remove_notification', { card_id: 'weight', notification_id: 'evening' });
    expect(late.json).toMatchObject({ approved: false, decision: 'expired' });
    expect(items()).toHaveLength(2);
    t.decision = 'approved';
  });

  it('with confirmed:true removes the item and reports remaining', async () => {
    const r = await t.call('remove_notification', {
      card_id: 'weight',
      notification_id: 'evening',
      confirmed: true,
    });
    expect(r.json).toEqual({ ok: true, card_id: 'weight', notification_id: 'evening', remaining: 1 });
    expect(items().map((i: { id: string }) => i.id)).toEqual(['morning-weigh-in']);
    const last = await t.call('remove_notification', {
      card_id: 'weight',
      notification_id: 'morning-weigh-in',
      confirmed: true,
    });
    expect(last.json.remaining).toBe(0);
    expect(items()).toEqual([]);
  });

  it('an unknown reminder is an error', async () => {
    const r = await t.call('remove_notification', {
      card_id: 'weight',
      notification_id: 'nope',
      confirmed: true,
    });
    expect(r.ok).toBe(false);
    expect(r.json.error).toContain('nope');
    expect(items()).toHaveLength(2);
  });
});
