import { describe, expect, it } from 'vitest';
import { rendererShapeErrors } from './renderer-shape.js';

function combo(view: Record<string, unknown>, data?: unknown): Record<string, unknown> {
  const m: Record<string, unknown> = {
    $schema: 'klebb.datafile.v1',
    meta: { id: 'rings', label: 'Rings', view: { enabled: true, component: 'combination-card', ...view } },
  };
  if (data !== undefined) m.data = data;
  return m;
}

const ring = { sourceId: 'steps', role: 'ring-segment', goalDaily: 10000 };

describe('rendererShapeErrors (docs/CHAT-AGENT.md validate_manifest)', () => {
  it('passes a well-formed combination card, with data [] or absent', () => {
    expect(
      rendererShapeErrors(combo({ combines: [ring, { sourceId: 'w', role: 'annotation' }] }, [])),
    ).toEqual([]);
    expect(rendererShapeErrors(combo({ combines: [{ sourceId: 's', role: 'primary' }] }))).toEqual([]);
  });

  it('ignores non-manifests and cards without a view', () => {
    expect(rendererShapeErrors(null)).toEqual([]);
    expect(rendererShapeErrors({ meta: { id: 'x' } })).toEqual([]);
    expect(rendererShapeErrors({ meta: { view: { component: 'generic-card', display: {} } } })).toEqual([]);
  });

  it('display must be an object', () => {
    expect(rendererShapeErrors({ meta: { view: { component: 'generic-card', display: '{kg}' } } })).toEqual([
      {
        path: 'meta.view.display',
        message: 'meta.view.display must be an object, never a string; got "{kg}"',
      },
    ]);
  });

  it.each([undefined, [], 'steps', {}])('combines %j is rejected', (combines) => {
    const [e] = rendererShapeErrors(combo({ combines }));
    expect(e.path).toBe('meta.view.combines');
    expect(e.message).toContain('must be a non-empty array');
  });

  it('checks each entry', () => {
    const errs = rendererShapeErrors(
      combo({
        combines: [
          'steps',
          { role: 'primary' },
          { sourceId: 'x', role: 'bar-series' },
          { sourceId: 'x', role: 'ring-segment' },
          { sourceId: 'x', role: 'ring-segment', goalDaily: 0 },
          { sourceId: 'x', role: 'ring-segment', goalDaily: '30' },
        ],
      }),
    );
    expect(errs.map((e) => e.path)).toEqual([
      'meta.view.combines[0]',
      'meta.view.combines[1].sourceId',
      'meta.view.combines[2].role',
      'meta.view.combines[3].goalDaily',
      'meta.view.combines[4].goalDaily',
      'meta.view.combines[5].goalDaily',
    ]);
    expect(errs[3].message).toBe(
      'meta.view.combines[3].goalDaily must be a positive number for a ring-segment (or give goalWeekly), got nothing',
    );
  });

  it.each([[[{ date: '2026-04-20' }]], [{}], ['[]'], [0]])('a combination card owns no data: %j', (data) => {
    const errs = rendererShapeErrors(combo({ combines: [ring] }, data));
    expect(errs.map((e) => e.path)).toEqual(['data']);
  });
});

describe('combination cards as the older app wrote them', () => {
  it('a weekly goal is a goal, and a card drawing its own rows may keep them', () => {
    expect(
      rendererShapeErrors({
        $schema: 'klebb.datafile.v1',
        meta: {
          id: 'sleep',
          label: 'Sleep',
          view: {
            component: 'combination-card',
            layout: 'rings',
            combines: [
              { sourceId: 'sleep', role: 'ring-segment', accessor: 'hours', goalDaily: 8 },
              { sourceId: 'workouts', role: 'ring-segment', accessor: 'sessionCount', goalWeekly: 4 },
            ],
          },
        },
        data: [{ date: '2026-04-20', hours: 7.5 }],
      }),
    ).toEqual([]);
  });
});
