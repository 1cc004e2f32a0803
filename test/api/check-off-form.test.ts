/**
 * A schedule card's `checkOffForm` (what each tick of a dose asks for) is checked like the card's
 * form: a shape no form could be drawn from is 422 naming the field on create and patch, and
 * nothing is written; a card file written by hand with one loads without it, reported as
 * FIELD_DROPPED. The shapes the docs give (inputs, or the keys of the card's inputs) are taken.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;

const schedule = (id: string, checkOffForm: unknown) => ({
  $schema: 'klebb.datafile.v1',
  meta: {
    id,
    label: 'Injections',
    view: { enabled: true, component: 'schedule-card', checkOffForm },
    writeable: { fromWebapp: true },
  },
  data: { items: [{ name: 'BPC', schedule: { type: 'daily' }, doses: [] }] },
});

const BAD: [string, unknown, string][] = [
  ['a text instead of an object', 'site', 'meta.view.checkOffForm'],
  ['a list instead of an object', ['site'], 'meta.view.checkOffForm'],
  ['currentDoseFields not a list', { currentDoseFields: 'site' }, 'meta.view.checkOffForm.currentDoseFields'],
  [
    'a dose field of an unknown type',
    { currentDoseFields: [{ key: 'site', type: 'wobble' }] },
    'meta.view.checkOffForm.currentDoseFields[0].type',
  ],
  [
    'a dose field without a key',
    { currentDoseFields: [{ type: 'text' }] },
    'meta.view.checkOffForm.currentDoseFields[0].key',
  ],
  [
    'a dose field that is a number',
    { currentDoseFields: ['site', 7] },
    'meta.view.checkOffForm.currentDoseFields[1]',
  ],
  ['an empty key', { currentDoseFields: [' '] }, 'meta.view.checkOffForm.currentDoseFields[0]'],
  [
    'previousDoseFields of objects',
    { previousDoseFields: [{ key: 'site' }] },
    'meta.view.checkOffForm.previousDoseFields[0]',
  ],
  ['previousDoseFields a text', { previousDoseFields: 'site' }, 'meta.view.checkOffForm.previousDoseFields'],
  [
    'a prompt that is not text',
    { previousDosePrompt: { en: 'How?' } },
    'meta.view.checkOffForm.previousDosePrompt',
  ],
  [
    'a select dose field without options',
    { currentDoseFields: [{ key: 'x', type: 'select', options: [] }] },
    'meta.view.checkOffForm.currentDoseFields[0].options',
  ],
];

beforeAll(async () => {
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'by-hand.json'), JSON.stringify(schedule('by-hand', 'site')));
    },
  });
});
afterAll(async () => {
  await s?.close();
});

describe('checkOffForm', () => {
  it.each(BAD)('%s is refused on create with 422 naming the field', async (_what, form, field) => {
    const r = await s.api('/api/manifests', { json: schedule('c', form) });
    expect(r.status, r.text).toBe(422);
    expect(r.body.details.map((d: { path: string }) => d.path)).toContain(field);
    expect((await s.api('/api/manifests/c')).status).toBe(404);
  });

  it.each(BAD)('%s is refused in a patch with 422 naming the field', async (_what, form, field) => {
    await s.api('/api/manifests/p', { method: 'DELETE' });
    expect(
      (await s.api('/api/manifests', { json: schedule('p', { currentDoseFields: ['site'] }) })).status,
    ).toBe(201);
    const r = await s.api('/api/manifests/p', {
      method: 'PATCH',
      json: { meta: { view: { checkOffForm: form } } },
    });
    expect(r.status, r.text).toBe(422);
    expect(r.body.details.map((d: { path: string }) => d.path)).toContain(field);
    expect((await s.api('/api/manifests/p')).body.meta.view.checkOffForm).toEqual({
      currentDoseFields: ['site'],
    });
  });

  it('takes inputs, keys of the card inputs and prompts', async () => {
    const form = {
      currentDoseFields: ['site', { key: 'amount', type: 'number', min: 0 }],
      previousDoseFields: ['site'],
      previousDosePrompt: 'How does the last site look?',
      currentDosePrompt: 'injection',
    };
    const r = await s.api('/api/manifests', { json: schedule('ok', form) });
    expect(r.status, r.text).toBe(201);
  });

  it('a card file with a broken one loads without it, reported as FIELD_DROPPED', async () => {
    const card = await s.api('/api/manifests/by-hand');
    expect(card.status).toBe(200);
    expect(card.body.meta.view.checkOffForm).toBeUndefined();
    expect((await s.api('/api/manifests')).body.errors).toEqual([
      expect.objectContaining({ id: 'by-hand', code: 'FIELD_DROPPED', path: 'meta.view.checkOffForm' }),
    ]);
  });
});
