import { describe, expect, it } from 'vitest';
import { normalisePayload } from './payload.js';

const metric = {
  name: 'step_count',
  units: 'count',
  data: [{ date: '2025-08-12 00:00:00 +0100', qty: 8990 }],
};
const workout = { name: 'Walk', start: '2025-08-12 12:12:00 +0100', end: '2025-08-12 12:33:00 +0100' };

describe('normalisePayload (docs/HEALTH-AUTO-EXPORT.md)', () => {
  it('reads the body with the data wrapper', () => {
    const p = normalisePayload({ data: { metrics: [metric], workouts: [workout], symptoms: [] } });
    expect(p.metrics).toEqual([metric]);
    expect(p.workouts).toEqual([workout]);
    expect(p.warnings).toEqual([]);
  });

  it('reads section-only bodies without the wrapper (the spark files)', () => {
    expect(normalisePayload({ metrics: [metric] }).metrics).toEqual([metric]);
    expect(normalisePayload({ workouts: [workout] }).workouts).toEqual([workout]);
  });

  it('reads missing, null and empty sections as empty', () => {
    for (const body of [{ data: {} }, { data: { metrics: null, workouts: [] } }, { data: { metrics: [] } }]) {
      const p = normalisePayload(body);
      expect(p.metrics).toEqual([]);
      expect(p.workouts).toEqual([]);
    }
  });

  it('keeps metrics with empty data (listed by the app with "data": [])', () => {
    const p = normalisePayload({ data: { metrics: [{ name: 'blood_pressure', units: 'mmHg', data: [] }] } });
    expect(p.metrics).toEqual([{ name: 'blood_pressure', units: 'mmHg', data: [] }]);
  });

  it('keeps points with source null or no source as they are', () => {
    const data = [
      { date: '2023-01-16 00:00:00 +1100', qty: 1, source: null },
      { date: '2023-01-17 00:00:00 +1100', qty: 2 },
    ];
    expect(
      normalisePayload({ data: { metrics: [{ name: 'step_count', units: 'count', data }] } }).metrics[0].data,
    ).toEqual(data);
  });

  it.each([null, 'text', 42, [1, 2], true])(
    'turns a non-object body %j into an empty payload with a warning',
    (body) => {
      const p = normalisePayload(body);
      expect(p.metrics).toEqual([]);
      expect(p.workouts).toEqual([]);
      expect(p.warnings[0]).toMatch(/not an HAE object/);
    },
  );

  it('drops unreadable parts and says so, keeping the rest', () => {
    const p = normalisePayload({
      data: {
        metrics: [
          metric,
          { units: 'kg', data: [] },
          'junk',
          { name: 'weight_body_mass', units: 'kg', data: [1, null, { qty: 70 }] },
        ],
        workouts: [workout, 7],
        // a section a later version of the app may add: counted, not read
        audiograms: [{ frequencies: [] }],
      },
    });
    expect(p.metrics.map((m) => m.name)).toEqual(['step_count', 'weight_body_mass']);
    expect(p.metrics[1].data).toEqual([{ qty: 70 }]);
    expect(p.workouts).toEqual([workout]);
    expect(p.warnings).toEqual([
      '2 metric block(s) without a name skipped',
      '2 metric point(s) that are not objects skipped',
      '1 workout(s) that are not objects skipped',
      '1 audiograms entr(ies) received, not ingested',
    ]);
  });

  it('reads the top level when "data" is not an object', () => {
    const p = normalisePayload({ data: 'x', metrics: [metric] });
    expect(p.metrics).toEqual([metric]);
    expect(p.warnings[0]).toMatch(/"data" is a string/);
  });

  it('treats a non-array data of a metric as a skipped block', () => {
    const p = normalisePayload({ metrics: [{ name: 'step_count', units: 'count', data: { qty: 1 } }] });
    expect(p.metrics).toEqual([]);
    expect(p.warnings[0]).toMatch(/metric step_count: "data" is an object/);
  });
});
