import { describe, expect, it } from 'vitest';
import { formatPath } from './field-issues.js';
import { checkViewConfigs, VIEW_CONFIG_KEYS } from './validate-views.js';

const paths = (meta: Record<string, unknown>) =>
  checkViewConfigs(meta, ['meta']).map((i) => formatPath(i.path));

describe('checkViewConfigs', () => {
  it('accepts object configs with unknown keys and unknown renderers', () => {
    expect(
      paths({ view: { component: 'not-yet-built', anything: 1 }, trends: {}, dayDetail: { x: [] } }),
    ).toEqual([]);
  });

  it.each([...VIEW_CONFIG_KEYS])('rejects a non-object meta.%s, dropping it', (key) => {
    for (const bad of ['x', 1, null, [], true]) {
      const [issue] = checkViewConfigs({ [key]: bad }, ['meta']);
      expect(formatPath(issue.path)).toBe(`meta.${key}`);
      expect(issue.message).toContain(`meta.${key} must be an object`);
      expect(issue.drops).toEqual([['meta', key]]);
    }
  });

  it('rejects a string display (never a string), dropping only display', () => {
    const [issue] = checkViewConfigs({ view: { component: 'generic-card', display: '{kg}' } }, ['meta']);
    expect(formatPath(issue.path)).toBe('meta.view.display');
    expect(issue.message).toContain('never a string');
    expect(issue.drops).toEqual([['meta', 'view', 'display']]);
    expect(paths({ trends: { display: [] } })).toEqual(['meta.trends.display']);
  });

  it('checks the legacy meta.view.inputs', () => {
    expect(paths({ view: { inputs: [{ name: 'a', type: 'number' }] } })).toEqual([]);
    expect(paths({ view: { inputs: [{ name: 'a', type: 'dial' }] } })).toEqual(['meta.view.inputs[0].type']);
  });
});
