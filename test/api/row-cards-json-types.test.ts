/**
 * A card that keeps rows only takes an array of row objects in place of its rows: an object, a
 * string, a number or null sent as `data`, a non-object row, or a non-object appended at the top
 * is 400 naming the field, and nothing changes. Through REST and through the chat tools.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manifest, type ToolEnv, toolEnv } from '../tools/harness.js';

const T = 'types-token';
let t: ToolEnv;
const api = (path: string, init: Record<string, unknown> = {}) => t.s.api(path, { token: T, ...init });

const ROWS = [
  { date: '2026-04-18', kg: 80 },
  { date: '2026-04-19', kg: 80.5 },
];
const withInputs = {
  writeable: { fromWebapp: true, inputs: [{ key: 'kg', label: 'Weight', type: 'number' }] },
};

beforeAll(async () => {
  t = await toolEnv({ env: { AGENT_API_TOKEN: T } });
});
afterAll(async () => {
  await t.close();
});

async function fresh(id: string, data: unknown, meta: Record<string, unknown> = {}) {
  await api(`/api/manifests/${id}`, { method: 'DELETE' });
  const r = await api('/api/manifests', { json: manifest(id, data, meta) });
  expect(r.status).toBe(201);
  return (await api(`/api/manifests/${id}/data`)).headers.get('etag');
}

describe('POST /api/manifests/:id/data on a card that keeps rows', () => {
  beforeEach(async () => {
    await fresh('w', ROWS);
    await fresh('f', [], withInputs);
  });

  it.each([
    ['an object', { kg: 81 }],
    ['a number', 81],
    ['null', null],
    ['true', true],
  ])('refuses %s in place of the rows, naming data, and keeps the rows', async (_what, data) => {
    const before = await api('/api/manifests/w/data');
    const r = await api('/api/manifests/w/data', { json: { data } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('BAD_REQUEST');
    expect(r.body.details[0].path).toBe('body.data');
    const after = await api('/api/manifests/w/data');
    expect(after.body.data).toEqual(ROWS);
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
  });

  it('an empty card whose form has inputs refuses an object too', async () => {
    const r = await api('/api/manifests/f/data', { json: { data: { kg: 81 } } });
    expect(r.status).toBe(400);
    expect(r.body.details[0].path).toBe('body.data');
    expect((await api('/api/manifests/f/data')).body.data).toEqual([]);
  });

  it('refuses a row that is not an object, naming it', async () => {
    const r = await api('/api/manifests/w/data', { json: { data: [ROWS[0], [1, 2]] } });
    expect(r.status).toBe(400);
    expect(r.body.details[0].path).toBe('body.data[1]');
    expect((await api('/api/manifests/w/data')).body.data).toEqual(ROWS);
  });

  it('still takes rows, an empty list and a date-keyed object', async () => {
    expect((await api('/api/manifests/w/data', { json: { data: [] } })).status).toBe(200);
    const r = await api('/api/manifests/w/data', { json: { data: { '2026-04-20': { kg: 82 } } } });
    expect(r.status).toBe(200);
    expect((await api('/api/manifests/w/data')).body.data).toEqual([{ date: '2026-04-20', kg: 82 }]);
  });

  it('a card that keeps one object (no inputs, no rows) still takes an object', async () => {
    await fresh('doc', { markdown: 'a' });
    const r = await api('/api/manifests/doc/data', { json: { data: { markdown: 'b' } } });
    expect(r.status).toBe(200);
  });
});

describe('creating a card with a form and non-row data', () => {
  it('is 400 naming data, and no card is made', async () => {
    const r = await api('/api/manifests', { json: manifest('made', { kg: 1 }, withInputs) });
    expect(r.status).toBe(400);
    expect(r.body.details[0].path).toBe('data');
    expect((await api('/api/manifests/made')).status).toBe(404);
  });
});

describe('appending a non-object row at the top of a card that keeps rows', () => {
  beforeEach(async () => {
    await fresh('w', ROWS);
  });

  it.each([
    ['an array', [{ kg: 1 }]],
    ['a string', '81'],
    ['null', null],
  ])('REST refuses %s, naming value', async (_what, value) => {
    const r = await api('/api/manifests/w/rows', { json: { value } });
    expect(r.status).toBe(400);
    expect(r.body.details[0].path).toBe('body.value');
    expect((await api('/api/manifests/w/data')).body.data).toEqual(ROWS);
  });
});

describe('the chat tools', () => {
  beforeEach(async () => {
    await fresh('w', ROWS);
  });

  it('write_manifest_data refuses an object for the rows and changes nothing', async () => {
    const r = await t.call('write_manifest_data', { id: 'w', data: { kg: 81 } });
    expect(r.json.code).toBe('BAD_REQUEST');
    expect(JSON.stringify(r.json)).toContain('data');
    expect((await api('/api/manifests/w/data')).body.data).toEqual(ROWS);
  });

  it('append_row refuses an array row and changes nothing', async () => {
    const r = await t.call('append_row', { id: 'w', path: '', value: [{ kg: 1 }] });
    expect(r.json.code).toBe('BAD_REQUEST');
    expect((await api('/api/manifests/w/data')).body.data).toEqual(ROWS);
  });
});
