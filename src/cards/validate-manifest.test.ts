import { describe, expect, it } from 'vitest';
import { templateIds, templateText } from '../../test/helpers/templates.js';
import {
  dryRunValidate,
  isManifestSchemaId,
  MANIFEST_SCHEMA_IDS,
  rendererShapeErrors,
  sanitizeAtLoad,
  validateForCreate,
  validateForPatch,
} from './validate-manifest.js';

function good(
  meta: Record<string, unknown> = {},
  rest: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    $schema: 'klebb.datafile.v1',
    meta: {
      id: 'blood-pressure',
      label: 'Blood Pressure',
      emoji: '🩺',
      view: { enabled: true, component: 'list-card' },
      writeable: {
        fromWebapp: true,
        todayAllowed: true,
        pastAllowed: true,
        inputs: [
          { key: 'systolic', label: 'Systolic', type: 'number', required: true },
          { key: 'diastolic', label: 'Diastolic', type: 'number', required: true },
        ],
      },
      ...meta,
    },
    description: 'Home BP readings.',
    data: [],
    ...rest,
  };
}

const invalidPaths = (m: unknown, opts = {}) => validateForCreate(m, opts).invalid.map((e) => e.path);

describe('MANIFEST_SCHEMA_IDS', () => {
  it('holds the current and the legacy id', () => {
    expect(MANIFEST_SCHEMA_IDS).toEqual(['klebb.datafile.v1', 'eddzhealth.datafile.v1']);
    expect(isManifestSchemaId('eddzhealth.datafile.v1')).toBe(true);
    expect(isManifestSchemaId('klebb.datafile.v2')).toBe(false);
  });
});

describe('validateForCreate: malformed (400)', () => {
  it('passes the blood-pressure example', () => {
    expect(validateForCreate(good())).toEqual({ malformed: [], invalid: [] });
  });

  it.each([null, [], 'manifest', 3])('rejects a non-object %j', (m) => {
    expect(validateForCreate(m).malformed).toEqual([
      { path: '', message: expect.stringContaining('JSON object') },
    ]);
  });

  it('rejects a missing or unknown $schema', () => {
    const { $schema: _, ...noSchema } = good();
    expect(validateForCreate(noSchema).malformed).toEqual([
      { path: '$schema', message: '$schema is required and must be "klebb.datafile.v1"' },
    ]);
    expect(validateForCreate({ ...good(), $schema: 'klebb.datafile.v2' }).malformed[0].message).toContain(
      'got "klebb.datafile.v2"',
    );
    expect(validateForCreate({ ...good(), $schema: 'eddzhealth.datafile.v1' }).malformed).toEqual([]);
  });

  it('rejects a missing meta, id or label', () => {
    expect(validateForCreate({ $schema: 'klebb.datafile.v1' }).malformed.map((e) => e.path)).toEqual([
      'meta',
    ]);
    expect(validateForCreate({ $schema: 'klebb.datafile.v1', meta: [] })).toEqual({
      malformed: [{ path: 'meta', message: 'meta is required and must be an object, got []' }],
      invalid: [],
    });
    for (const id of [undefined, '', 7]) {
      expect(validateForCreate(good({ id })).malformed.map((e) => e.path)).toEqual(['meta.id']);
    }
    for (const label of [undefined, '', '   ', false]) {
      expect(validateForCreate(good({ label })).malformed.map((e) => e.path)).toEqual(['meta.label']);
    }
  });

  it('rejects a JSON-string data block', () => {
    expect(validateForCreate(good({}, { data: '[]' })).malformed).toEqual([
      { path: 'data', message: expect.stringContaining('not a JSON-encoded string') },
    ]);
    expect(validateForCreate(good({}, { data: 42 })).malformed).toEqual([]);
    expect(validateForCreate(good({}, { data: { markdown: '# hi' } })).malformed).toEqual([]);
  });
});

describe('validateForCreate: invalid (422)', () => {
  it('applies the id rules', () => {
    expect(validateForCreate(good({ id: 'index' })).invalid).toEqual([
      { path: 'meta.id', message: expect.stringContaining('reserved') },
    ]);
    expect(invalidPaths(good({ id: 'Blood Pressure' }))).toEqual(['meta.id']);
    expect(invalidPaths(good({ id: 'b'.repeat(64) }))).toEqual([]);
    expect(invalidPaths(good({ id: 'b'.repeat(65) }))).toEqual(['meta.id']);
  });

  it('names each bad optional field', () => {
    const m = good({
      emoji: 1,
      order: 1.5,
      enabled: 'yes',
      category: 'Vital Signs',
      view: { component: 'generic-card', display: '{kg}' },
      trends: [],
      calendar: 'day-marker',
      reports: null,
      dayDetail: 1,
      writeable: { fromWebapp: 'true', maxReadingsPerDay: -1, inputs: [{ key: 'a', type: 'dial' }] },
      ingest: { source: 'hae', metric: '' },
      cadence: { expectDays: 731 },
      notifications: { items: [{ id: 'x' }] },
    });
    m.description = 5;
    const paths = invalidPaths(m);
    expect(paths).toEqual([
      'meta.emoji',
      'meta.order',
      'meta.enabled',
      'description',
      'meta.category',
      'meta.view.display',
      'meta.trends',
      'meta.calendar',
      'meta.reports',
      'meta.dayDetail',
      'meta.writeable.fromWebapp',
      'meta.writeable.maxReadingsPerDay',
      'meta.writeable.inputs[0].type',
      'meta.ingest.metric',
      'meta.cadence.expectDays',
      'meta.notifications.items[0].label',
      'meta.notifications.items[0].title',
      'meta.notifications.items[0].body',
      'meta.notifications.items[0].trigger',
    ]);
  });

  it('uses the documented id prefixes', () => {
    const { invalid } = validateForCreate(
      good({
        ingest: { source: 'x', metric: 'y' },
        cadence: { expectDays: 0 },
        notifications: { enabled: 1 },
      }),
    );
    expect(invalid.map((e) => e.message.split(':')[0])).toEqual([
      'invalid ingest',
      'invalid cadence',
      'invalid notifications',
    ]);
  });

  it('checks ingest metrics against the catalogue when given', () => {
    const m = good({ ingest: { source: 'hae', metric: 'stepz' }, writeable: { fromWebapp: false } });
    expect(invalidPaths(m)).toEqual([]);
    expect(invalidPaths(m, { isKnownMetric: (x: string) => x === 'step_count' })).toEqual([
      'meta.ingest.metric',
    ]);
  });

  it('checks schedule.time_of_day in data.items[] and data.current[]', () => {
    const m = good(
      {},
      {
        data: {
          items: [{ name: 'a', schedule: { type: 'daily', time_of_day: ['morning', 'evening'] } }],
          current: [{ name: 'b', schedule: { type: 'daily', time_of_day: 'lunch' } }],
        },
      },
    );
    expect(validateForCreate(m).invalid).toEqual([
      {
        path: 'data.current[0].schedule.time_of_day',
        message: expect.stringMatching(/^invalid schedule\.time_of_day/),
      },
    ]);
  });

  it('passes unknown fields anywhere', () => {
    const m = good(
      { brandNew: { deep: [1] }, view: { component: 'future-card', wild: true, display: { odd: 1 } } },
      { extraTop: 1 },
    );
    expect(validateForCreate(m)).toEqual({ malformed: [], invalid: [] });
  });

  it('still reports invalid fields beside malformed ones', () => {
    const r = validateForCreate(good({ label: '', cadence: { expectDays: 0 } }));
    expect(r.malformed.map((e) => e.path)).toEqual(['meta.label']);
    expect(r.invalid.map((e) => e.path)).toEqual(['meta.cadence.expectDays']);
  });
});

describe('validateForPatch', () => {
  it('applies the same rules to a merged manifest', () => {
    expect(validateForPatch(good())).toEqual({ malformed: [], invalid: [] });
    expect(validateForPatch(good({ cadence: { expectDays: 'weekly' } })).invalid.map((e) => e.path)).toEqual([
      'meta.cadence.expectDays',
    ]);
    expect(validateForPatch(good({ label: null })).malformed.map((e) => e.path)).toEqual(['meta.label']);
  });

  it('keeps a leniently loaded id patchable but refuses a rename', () => {
    const old = good({ id: 'Old_Card' });
    expect(validateForPatch(old).invalid.map((e) => e.path)).toEqual(['meta.id']);
    expect(validateForPatch(old, { originalId: 'Old_Card' }).invalid).toEqual([]);
    expect(validateForPatch(good(), { originalId: 'bp' }).invalid).toEqual([
      { path: 'meta.id', message: 'meta.id cannot be changed by a patch (was "bp", got "blood-pressure")' },
    ]);
  });
});

describe('dryRunValidate (validate_manifest)', () => {
  it('returns ok for a good manifest', () => {
    expect(dryRunValidate(good())).toEqual({ ok: true });
  });

  it('adds renderer-shape errors, one per path', () => {
    const r = dryRunValidate(
      good(
        { view: { component: 'combination-card', display: 'x', combines: [{ sourceId: 's', role: 'x' }] } },
        {
          data: [{ date: '2026-04-20' }],
        },
      ),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => e.path)).toEqual(['meta.view.display', 'meta.view.combines[0].role', 'data']);
  });

  it('puts malformed errors first', () => {
    const r = dryRunValidate({ meta: { id: 'x', label: 'X', order: 'first' } });
    expect(r).toEqual({
      ok: false,
      errors: [
        { path: '$schema', message: expect.any(String) },
        { path: 'meta.order', message: expect.any(String) },
      ],
    });
  });
});

describe('the card templates (templates/)', () => {
  const ids = templateIds();

  it('are all there', () => {
    expect(ids.length).toBeGreaterThanOrEqual(20);
  });

  it.each(ids)('%s validates, loads unchanged and has a sound renderer shape', (id) => {
    const text = templateText(id);
    const m = JSON.parse(text) as Record<string, unknown>;
    expect(validateForCreate(m)).toEqual({ malformed: [], invalid: [] });
    expect((m.meta as { id: string }).id).toBe(id);
    expect(validateForPatch(m, { originalId: id })).toEqual({
      malformed: [],
      invalid: [],
    });
    expect(rendererShapeErrors(m)).toEqual([]);
    expect(dryRunValidate(m)).toEqual({ ok: true });
    const { manifest, dropped, warnings } = sanitizeAtLoad(m);
    expect(dropped).toEqual([]);
    expect(warnings).toEqual([]);
    expect(manifest).toEqual(JSON.parse(text));
    expect(JSON.stringify(manifest)).toBe(JSON.stringify(JSON.parse(text)));
  });
});
