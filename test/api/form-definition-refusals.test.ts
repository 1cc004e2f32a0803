/**
 * A card's form definition (`meta.writeable.inputs`, `requireAny`) is checked when a card is
 * created or changed: a key that names an object's prototype, a bound that is not a number and a
 * default the input could not store are 422 naming the field, and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
});

const card = (id: string, writeable: Record<string, unknown>) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: id, writeable: { fromWebapp: true, ...writeable } },
  data: [],
});
const inputs = (...list: Record<string, unknown>[]) => ({ inputs: list });

describe('form definitions refused on create and patch', () => {
  it.each([
    ['a key __proto__', inputs({ key: '__proto__', type: 'text' }), 'meta.writeable.inputs[0].key'],
    ['a key constructor', inputs({ key: 'constructor', type: 'number' }), 'meta.writeable.inputs[0].key'],
    ['a legacy name prototype', inputs({ name: 'prototype', type: 'text' }), 'meta.writeable.inputs[0].name'],
    [
      'requireAny naming __proto__',
      { ...inputs({ key: 'kg', type: 'number' }), requireAny: ['kg', '__proto__'] },
      'meta.writeable.requireAny[1]',
    ],
    [
      'a date input with a number default',
      inputs({ key: 'day', type: 'date', default: 5 }),
      'meta.writeable.inputs[0].default',
    ],
    [
      'a string min on a number input',
      inputs({ key: 'kg', type: 'number', min: '10' }),
      'meta.writeable.inputs[0].min',
    ],
    [
      'a string max on a stepper',
      inputs({ key: 'n', type: 'stepper', max: 'ten' }),
      'meta.writeable.inputs[0].max',
    ],
  ])('%s is 422 naming the field', async (_what, writeable, field) => {
    const id = `form-${field.replace(/\W+/g, '-')}-${Object.keys(writeable).length}`;
    const r = await s.api('/api/manifests', { json: card(id, writeable) });
    expect(r.status, r.text).toBe(422);
    expect(r.body.details.map((d: { path: string }) => d.path)).toContain(field);
    expect((await s.api(`/api/manifests/${id}`)).status).toBe(404);
  });

  it('a patch bringing such an input is refused and the card keeps its form', async () => {
    const good = inputs({ key: 'kg', type: 'number', min: 0 });
    expect((await s.api('/api/manifests', { json: card('form-patch', good) })).status).toBe(201);
    const r = await s.api('/api/manifests/form-patch', {
      method: 'PATCH',
      json: { meta: { writeable: inputs({ key: 'kg', type: 'number', min: 'zero' }) } },
    });
    expect(r.status).toBe(422);
    expect(r.body.details.map((d: { path: string }) => d.path)).toContain('meta.writeable.inputs[0].min');
    const after = await s.api('/api/manifests/form-patch');
    expect(after.body.meta.writeable.inputs).toEqual([{ key: 'kg', type: 'number', min: 0 }]);
  });

  it('a date input given a number in an entry is 422 naming the field', async () => {
    const made = await s.api('/api/manifests', {
      json: card('form-date', inputs({ key: 'day', type: 'date', label: 'Day' })),
    });
    expect(made.status).toBe(201);
    const r = await s.api('/api/manifests/form-date/entries', { json: { entry: { day: 20260420 } } });
    expect(r.status).toBe(422);
    expect(r.body.details.map((d: { path: string }) => d.path)).toEqual(['body.entry.day']);
  });
});
