/**
 * Speeds in every unit a phone or an exporter writes them, pushed through the real webhook: a
 * stair speed in `ft/s` or `km/h` (a phone set to US units, another exporter), a walk in `mph` or
 * `mi/h`, a ride in `kmph` (how the app writes a workout's speed) or in knots. Each speed metric
 * reads every speed unit and converts it into its own (km/hr, or m/s for stairs); a pace
 * (`min/km`, the inverse of a speed) is not a speed and is named in the warnings.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const DAY = '2026-05-19';

function block(name: string, units: string, qty: number, day = DAY) {
  return { name, units, data: [{ date: `${day} 08:00:00 -0700`, qty, source: 'iPhone' }] };
}

describe('speed units', () => {
  it('every speed metric reads every speed unit', async () => {
    srv = await startIngestServer({
      cards: [
        ['stairs-up', 'stair_speed_up'],
        ['stairs-down', 'stair_speed_down'],
        ['walking', 'walking_speed'],
        ['cycling', 'cycling_speed'],
        ['running', 'running_speed'],
        ['rowing', 'rowing_speed'],
      ],
    });
    const body = {
      data: {
        metrics: [
          block('stair_speed_up', 'ft/s', 1),
          block('stair_speed_down', 'km/h', 1.8),
          block('walking_speed', 'mph', 3),
          block('cycling_speed', 'kmph', 24.5),
          block('running_speed', 'mi/h', 6),
          block('rowing_speed', 'kn', 5),
        ],
      },
    };
    const r = await srv.push(JSON.stringify(body));
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('stairs-up')).toEqual([{ date: DAY, mps: 0.3 }]);
    expect(await srv.rows('stairs-down')).toEqual([{ date: DAY, mps: 0.5 }]);
    expect(await srv.rows('walking')).toEqual([{ date: DAY, kmh: 4.83 }]);
    expect(await srv.rows('cycling')).toEqual([{ date: DAY, kmh: 24.5 }]);
    expect(await srv.rows('running')).toEqual([{ date: DAY, kmh: 9.66 }]);
    expect(await srv.rows('rowing')).toEqual([{ date: DAY, kmh: 9.3 }]);
    // the same speeds sent again add nothing
    expect((await srv.push(JSON.stringify(body))).body.samples).toEqual({ received: 6, new: 0 });
  });

  it('a pace is not a speed: named in the warnings, nothing stored', async () => {
    srv = await startIngestServer({ cards: [['running', 'running_speed']] });
    const r = await srv.push(JSON.stringify({ data: { metrics: [block('running_speed', 'min/km', 5.5)] } }));
    expect(r.status).toBe(200);
    expect(r.body.warnings.join('\n')).toContain('min/km');
    expect(await srv.rows('running')).toEqual([]);
  });
});
