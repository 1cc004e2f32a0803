/**
 * Card tools through dispatchToolCall against a real instance:
 * create_manifest, delete_manifest, patch_manifest, read_manifest, read_manifest_meta,
 * list_manifests, write_manifest_data, hide_card / show_card, validate_manifest.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manifest, type ToolEnv, toolEnv } from './harness.js';

let t: ToolEnv;
beforeEach(async () => {
  t = await toolEnv();
});
afterEach(async () => {
  await t.close();
});

const weight = () =>
  manifest(
    'weight',
    [
      { date: '2026-04-18', kg: 80 },
      { date: '2026-04-19', kg: 80.5 },
    ],
    {
      label: 'Weight',
      view: { enabled: true, component: 'generic-card', display: { template: '{kg} kg' } },
      writeable: { fromWebapp: true, inputs: [{ key: 'kg', label: 'kg', type: 'number' }] },
    },
    { description: 'Morning weight.\nSecond line is not listed.' },
  );

describe('create_manifest', () => {
  it('creates the card: meta-only file, rows in the store, welcome hidden once, replayed:false', async () => {
    const r = await t.call('create_manifest', { manifest: weight() });
    expect(r.ok).toBe(true);
    expect(r.cardId).toBe('weight');
    expect(r.json).toEqual({
      ok: true,
      id: 'weight',
      source: 'data/weight.json',
      welcomeAutoHidden: true,
      replayed: false,
    });

    const onDisk = t.file('weight');
    expect(onDisk).toBeDefined();
    expect(onDisk).not.toHaveProperty('data');
    expect(onDisk.meta.label).toBe('Weight');
    expect((await t.data('weight')).data).toEqual([
      { date: '2026-04-18', kg: 80 },
      { date: '2026-04-19', kg: 80.5 },
    ]);
    expect(t.file('welcome').meta.enabled).toBe(false);
    expect(t.touches).toContainEqual({ id: 'weight', flow: 'create' });

    const second = await t.call('create_manifest', { manifest: manifest('steps') });
    expect(second.json).toMatchObject({ ok: true, id: 'steps', welcomeAutoHidden: false, replayed: false });
  });

  it('a card created without data gets []', async () => {
    const m = manifest('empty');
    delete m.data;
    const r = await t.call('create_manifest', { manifest: m });
    expect(r.json.ok).toBe(true);
    expect((await t.data('empty')).data).toEqual([]);
  });

  it('409: an id in use comes back as {error, code} and writes nothing', async () => {
    await t.call('create_manifest', { manifest: weight() });
    const before = fs.readFileSync(path.join(t.s.dataDir, 'weight.json'), 'utf8');
    const r = await t.call('create_manifest', {
      manifest: manifest('weight', [{ date: '2026-01-01', kg: 1 }]),
    });
    expect(r.ok).toBe(false);
    expect(r.json).toMatchObject({ code: 'ID_IN_USE' });
    expect(typeof r.json.error).toBe('string');
    expect(r.json.error).toContain('weight');
    expect(fs.readFileSync(path.join(t.s.dataDir, 'weight.json'), 'utf8')).toBe(before);
    expect((await t.data('weight')).data).toHaveLength(2);
  });

  it('422: an invalid field comes back as {error, code, details} naming the field; nothing written', async () => {
    const m = manifest('bad-cadence', [], { cadence: { expectDays: 0 } });
    const r = await t.call('create_manifest', { manifest: m });
    expect(r.ok).toBe(false);
    expect(r.json.code).toBe('INVALID');
    expect(typeof r.json.error).toBe('string');
    expect(r.json.details.map((d: { path: string }) => d.path)).toContain('meta.cadence.expectDays');
    expect(t.file('bad-cadence')).toBeUndefined();
    expect(t.file('welcome').meta.enabled).not.toBe(false);
  });

  it('422 for a bad id; a manifest without $schema is refused by the shared schema', async () => {
    const badId = await t.call('create_manifest', { manifest: manifest('Bad Id!') });
    expect(badId.json).toMatchObject({ code: 'INVALID' });
    expect(badId.json.details.map((d: { path: string }) => d.path)).toContain('meta.id');

    const noSchema = manifest('no-schema');
    delete noSchema.$schema;
    const r = await t.call('create_manifest', { manifest: noSchema });
    // the same schema as POST /api/manifests (400 there): a tool's arguments refusal is BAD_ARGUMENTS
    expect(r.json).toMatchObject({ code: 'BAD_ARGUMENTS' });
    expect(r.json.details.map((d: { path: string }) => d.path)).toContain('manifest.$schema');
    expect(t.file('no-schema')).toBeUndefined();
  });
});

describe('delete_manifest', () => {
  it('removes the file and the rows', async () => {
    await t.call('create_manifest', { manifest: weight() });
    const r = await t.call('delete_manifest', { id: 'weight' });
    expect(r.json).toEqual({ ok: true, id: 'weight', removed: true });
    expect(r.cardId).toBe('weight');
    expect(fs.existsSync(path.join(t.s.dataDir, 'weight.json'))).toBe(false);
    expect((await t.data('weight')).status).toBe(404);
    const list = await t.call('list_manifests', {});
    expect(list.json.cards.map((c: { id: string }) => c.id)).not.toContain('weight');
  });

  it('an unknown id is {error, code}', async () => {
    const r = await t.call('delete_manifest', { id: 'nope' });
    expect(r.ok).toBe(false);
    expect(r.json).toMatchObject({ code: 'CARD_NOT_FOUND', id: 'nope' });
    expect(r.json.error).toContain('nope');
  });
});

describe('patch_manifest', () => {
  it('merges into meta and description and writes the file', async () => {
    await t.call('create_manifest', { manifest: weight() });
    const r = await t.call('patch_manifest', {
      id: 'weight',
      patch: { meta: { label: 'Body weight', emoji: '⚖️' }, description: 'Weighed after waking.' },
    });
    expect(r.json).toEqual({ ok: true, id: 'weight' });
    const onDisk = t.file('weight');
    expect(onDisk.meta.label).toBe('Body weight');
    expect(onDisk.meta.emoji).toBe('⚖️');
    expect(onDisk.meta.writeable.fromWebapp).toBe(true);
    expect(onDisk.description).toBe('Weighed after waking.');
    expect(t.touches).toContainEqual({ id: 'weight', flow: 'edit' });
    // data untouched
    expect((await t.data('weight')).data).toHaveLength(2);
  });

  it('null deletes a key', async () => {
    await t.call('create_manifest', { manifest: weight() });
    await t.call('patch_manifest', { id: 'weight', patch: { meta: { view: { display: null } } } });
    expect(t.file('weight').meta.view).toEqual({ enabled: true, component: 'generic-card' });
  });

  it('refuses data, $schema and an invalid result, writing nothing', async () => {
    await t.call('create_manifest', { manifest: weight() });
    const before = fs.readFileSync(path.join(t.s.dataDir, 'weight.json'), 'utf8');
    const data = await t.call('patch_manifest', { id: 'weight', patch: { data: [] } });
    expect(data.ok).toBe(false);
    expect(data.json.code).toBe('BAD_REQUEST');
    const invalid = await t.call('patch_manifest', {
      id: 'weight',
      patch: { meta: { cadence: { expectDays: 'often' } } },
    });
    expect(invalid.json.code).toBe('INVALID');
    expect(invalid.json.details[0].path).toBe('meta.cadence.expectDays');
    const rename = await t.call('patch_manifest', { id: 'weight', patch: { meta: { id: 'other' } } });
    expect(rename.ok).toBe(false);
    expect(fs.readFileSync(path.join(t.s.dataDir, 'weight.json'), 'utf8')).toBe(before);
  });
});

describe('read_manifest and read_manifest_meta', () => {
  it('read_manifest returns meta, description, schema and data', async () => {
    await t.call('create_manifest', { manifest: weight() });
    const r = await t.call('read_manifest', { id: 'weight' });
    expect(r.cardId).toBe('weight');
    expect(r.json.meta.id).toBe('weight');
    expect(r.json.description).toBe('Morning weight.\nSecond line is not listed.');
    expect(r.json.schema).toBeNull();
    expect(r.json.data).toEqual([
      { date: '2026-04-18', kg: 80 },
      { date: '2026-04-19', kg: 80.5 },
    ]);
  });

  it('read_manifest_meta returns everything but the rows', async () => {
    await t.call('create_manifest', {
      manifest: { ...weight(), schema: { type: 'array' } },
    });
    const r = await t.call('read_manifest_meta', { id: 'weight' });
    expect(Object.keys(r.json).sort()).toEqual(['description', 'meta', 'schema']);
    expect(r.json.meta.writeable.inputs[0].key).toBe('kg');
    expect(r.json.schema).toEqual({ type: 'array' });
    expect(r.content).not.toContain('2026-04-18');
  });

  it('unknown ids are errors', async () => {
    for (const name of ['read_manifest', 'read_manifest_meta']) {
      const r = await t.call(name, { id: 'ghost' });
      expect(r.ok).toBe(false);
      expect(r.json.code).toBe('CARD_NOT_FOUND');
    }
  });
});

describe('list_manifests', () => {
  it('lists id, label, first description line (<= 200) and enabled', async () => {
    const long = 'x'.repeat(300);
    await t.call('create_manifest', { manifest: weight() });
    await t.call('create_manifest', {
      manifest: manifest('long', [], { label: 'Long' }, { description: `${long}\nmore` }),
    });
    await t.call('create_manifest', { manifest: manifest('nodesc', [], { label: 'No description' }) });
    const r = await t.call('list_manifests', {});
    expect(r.ok).toBe(true);
    const byId = Object.fromEntries(r.json.cards.map((c: { id: string }) => [c.id, c]));
    expect(Object.keys(byId).sort()).toEqual(['long', 'nodesc', 'weight', 'welcome']);
    expect(byId.weight).toEqual({
      id: 'weight',
      label: 'Weight',
      description: 'Morning weight.',
      enabled: true,
    });
    expect(byId.long.description.length).toBeLessThanOrEqual(200);
    expect(byId.long.description.startsWith('xxxx')).toBe(true);
    expect(byId.long.description).not.toContain('more');
    expect(byId.nodesc.description).toBe('');
    expect(byId.welcome.enabled).toBe(false);
    for (const c of r.json.cards)
      expect(Object.keys(c).sort()).toEqual(['description', 'enabled', 'id', 'label']);
  });

  it('a clipped description line never ends in half a character', async () => {
    await t.call('create_manifest', {
      manifest: manifest('emoji', [], { label: 'Emoji' }, { description: '💊'.repeat(250) }),
    });
    const r = await t.call('list_manifests', {});
    const d: string = r.json.cards.find((c: { id: string }) => c.id === 'emoji').description;
    expect([...d].length).toBeLessThanOrEqual(200);
    expect(d.startsWith('💊💊')).toBe(true);
    expect(d.isWellFormed()).toBe(true);
  });

  it('accepts null arguments as {}', async () => {
    const r = await t.call('list_manifests', null);
    expect(r.ok).toBe(true);
    expect(r.json.cards.map((c: { id: string }) => c.id)).toEqual(['welcome']);
  });
});

describe('write_manifest_data', () => {
  it('replaces the whole data block', async () => {
    await t.call('create_manifest', { manifest: weight() });
    const r = await t.call('write_manifest_data', { id: 'weight', data: [{ date: '2026-05-01', kg: 79 }] });
    expect(r.json).toEqual({ ok: true, id: 'weight' });
    expect((await t.data('weight')).data).toEqual([{ date: '2026-05-01', kg: 79 }]);
    // the manifest file stays meta-only
    expect(t.file('weight')).not.toHaveProperty('data');
  });

  it('403 NOT_WRITEABLE on a read-only card, data unchanged', async () => {
    await t.call('create_manifest', {
      manifest: manifest('ro', [{ date: '2026-01-01', v: 1 }], { writeable: { fromWebapp: false } }),
    });
    const r = await t.call('write_manifest_data', { id: 'ro', data: [] });
    expect(r.ok).toBe(false);
    expect(r.json.code).toBe('NOT_WRITEABLE');
    expect(typeof r.json.error).toBe('string');
    expect((await t.data('ro')).data).toEqual([{ date: '2026-01-01', v: 1 }]);

    const noBlock = manifest('ro2', [{ v: 1 }]);
    delete (noBlock.meta as Record<string, unknown>).writeable;
    await t.call('create_manifest', { manifest: noBlock });
    const r2 = await t.call('write_manifest_data', { id: 'ro2', data: [] });
    expect(r2.json.code).toBe('NOT_WRITEABLE');
  });

  it('refuses a JSON-encoded string', async () => {
    await t.call('create_manifest', { manifest: weight() });
    const r = await t.call('write_manifest_data', { id: 'weight', data: '[{"kg":1}]' });
    expect(r.ok).toBe(false);
    expect(r.json.code).toBe('BAD_REQUEST');
    expect((await t.data('weight')).data).toHaveLength(2);
  });
});

describe('hide_card / show_card', () => {
  it('flip meta.enabled in the file and in list_manifests', async () => {
    await t.call('create_manifest', { manifest: weight() });
    const h = await t.call('hide_card', { id: 'weight' });
    expect(h.json).toEqual({ ok: true, id: 'weight', enabled: false });
    expect(t.file('weight').meta.enabled).toBe(false);
    let list = await t.call('list_manifests', {});
    expect(list.json.cards.find((c: { id: string }) => c.id === 'weight').enabled).toBe(false);

    const sh = await t.call('show_card', { id: 'weight' });
    expect(sh.json).toEqual({ ok: true, id: 'weight', enabled: true });
    expect(t.file('weight').meta.enabled).toBe(true);
    list = await t.call('list_manifests', {});
    expect(list.json.cards.find((c: { id: string }) => c.id === 'weight').enabled).toBe(true);
    // rows untouched
    expect((await t.data('weight')).data).toHaveLength(2);
  });

  it('unknown id is an error', async () => {
    const r = await t.call('hide_card', { id: 'ghost' });
    expect(r.ok).toBe(false);
    expect(r.json.code).toBe('CARD_NOT_FOUND');
  });
});

describe('validate_manifest', () => {
  it('ok for a valid manifest, and writes nothing', async () => {
    const r = await t.call('validate_manifest', { manifest: weight() });
    expect(r.json).toEqual({ ok: true });
    expect(t.file('weight')).toBeUndefined();
    expect(t.file('welcome').meta.enabled).not.toBe(false);
  });

  it('lists errors with path and message', async () => {
    const m = manifest('Bad Id', 'not json', { cadence: { expectDays: 9999 } });
    const r = await t.call('validate_manifest', { manifest: m });
    expect(r.ok).toBe(true); // the tool ran; the manifest is what failed
    expect(r.json.ok).toBe(false);
    const paths = r.json.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['data', 'meta.id', 'meta.cadence.expectDays']));
    for (const e of r.json.errors) {
      expect(typeof e.path).toBe('string');
      expect(typeof e.message).toBe('string');
      expect(e.message.length).toBeGreaterThan(0);
    }
  });

  it('a phone-fed card reading a field its metric never sends is an error, naming where', async () => {
    const m = manifest('spo2', [], {
      ingest: { source: 'hae', metric: 'blood_oxygen_saturation' },
      view: { enabled: true, component: 'generic-card', display: { template: '{percent}' } },
    });
    const r = await t.call('validate_manifest', { manifest: m });
    expect(r.json.ok).toBe(false);
    expect(r.json.errors).toEqual([
      {
        path: 'meta.view.display.template',
        message:
          'invalid ingest: meta.view.display.template reads "percent", which blood_oxygen_saturation rows never carry (they carry pct)',
      },
    ]);
    const fixed = manifest('spo2', [], {
      ingest: { source: 'hae', metric: 'blood_oxygen_saturation' },
      view: { enabled: true, component: 'generic-card', display: { template: '{pct}' } },
    });
    expect((await t.call('validate_manifest', { manifest: fixed })).json).toEqual({ ok: true });
  });

  it('display given as a string is an error', async () => {
    const m = manifest('disp', [], {
      view: { enabled: true, component: 'generic-card', display: '{kg} kg' },
    });
    const r = await t.call('validate_manifest', { manifest: m });
    expect(r.json.ok).toBe(false);
    const e = r.json.errors.filter((x: { path: string }) => x.path === 'meta.view.display');
    expect(e).toHaveLength(1);
    expect(e[0].message).toMatch(/object/);
  });

  it('a combination-card without combines is an error; with combines it is ok', async () => {
    const without = manifest('combo', [], { view: { enabled: true, component: 'combination-card' } });
    const r = await t.call('validate_manifest', { manifest: without });
    expect(r.json.ok).toBe(false);
    expect(r.json.errors.map((e: { path: string }) => e.path)).toContain('meta.view.combines');

    const noSource = manifest('combo', [], {
      view: { enabled: true, component: 'combination-card', combines: [{ role: 'primary' }] },
    });
    const r2 = await t.call('validate_manifest', { manifest: noSource });
    expect(r2.json.ok).toBe(false);
    expect(r2.json.errors.map((e: { path: string }) => e.path)).toContain('meta.view.combines[0].sourceId');

    const good = manifest('combo', [], {
      view: {
        enabled: true,
        component: 'combination-card',
        combines: [{ sourceId: 'weight', role: 'primary' }],
      },
    });
    expect((await t.call('validate_manifest', { manifest: good })).json).toEqual({ ok: true });
  });

  it('a non-object manifest is an error list, not a crash', async () => {
    const r = await t.call('validate_manifest', { manifest: 'hello' });
    expect(r.json.ok).toBe(false);
    expect(r.json.errors.length).toBeGreaterThan(0);
  });
});
