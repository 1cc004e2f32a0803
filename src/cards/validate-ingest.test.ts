import { describe, expect, it } from 'vitest';
import { formatPath } from './field-issues.js';
import { checkIngest } from './validate-ingest.js';

const AT = ['meta', 'ingest'];

describe('checkIngest', () => {
  it('accepts a hae subscription, with or without a catalogue', () => {
    expect(checkIngest(undefined, AT)).toEqual([]);
    expect(checkIngest({ source: 'hae', metric: 'step_count' }, AT)).toEqual([]);
    expect(checkIngest({ source: 'hae', metric: 'step_count' }, AT, (m) => m === 'step_count')).toEqual([]);
  });

  it.each([
    ['hae', 'meta.ingest'],
    [{ metric: 'step_count' }, 'meta.ingest.source'],
    [{ source: 'fitbit', metric: 'steps' }, 'meta.ingest.source'],
    [{ source: 'hae' }, 'meta.ingest.metric'],
    [{ source: 'hae', metric: '' }, 'meta.ingest.metric'],
  ])('rejects %j at %s, dropping the whole block', (value, path) => {
    const [issue, ...rest] = checkIngest(value, AT);
    expect(rest).toEqual([]);
    expect(formatPath(issue.path)).toBe(path);
    expect(issue.message.startsWith('invalid ingest: ')).toBe(true);
    expect(issue.drops).toEqual([AT]);
  });

  it('rejects a metric the catalogue does not know (a misspelt metric would never fill)', () => {
    const [issue] = checkIngest({ source: 'hae', metric: 'stepcount' }, AT, (m) => m === 'step_count');
    expect(issue.message).toBe(
      'invalid ingest: meta.ingest.metric "stepcount" is not a metric of the Health Auto Export catalogue',
    );
  });
});
