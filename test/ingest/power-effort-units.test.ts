/**
 * Power, effort and blood pressure in the unit spellings exporters write, pushed through the real
 * webhook: a cycling power in `watts` or `kW`, a running power with no unit (watts, as before),
 * a physical effort in `METs` or `kcal/(kg·h)`, an energy in `kcals`, a blood pressure in UCUM's
 * `mm[Hg]`. Each is read in the unit it names, none refused as unknown.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const DAY = '2026-05-19';

function block(name: string, units: string | undefined, point: Record<string, unknown>, day = DAY) {
  return {
    name,
    ...(units === undefined ? {} : { units }),
    data: [{ date: `${day} 08:00:00 -0700`, source: 'Watch', ...point }],
  };
}

describe('power, effort and pressure spellings', () => {
  it('are read in the unit they name', async () => {
    srv = await startIngestServer({
      cards: [
        ['cycling', 'cycling_power'],
        ['running', 'running_power'],
        ['effort', 'physical_effort'],
        ['energy', 'active_energy'],
        ['pressure', 'blood_pressure'],
      ],
    });
    const body = {
      data: {
        metrics: [
          block('cycling_power', 'watts', { qty: 210 }),
          block('cycling_power', 'kW', { qty: 0.25 }, '2026-05-20'),
          block('running_power', undefined, { qty: 260 }),
          block('physical_effort', 'METs', { qty: 6.5 }),
          block('physical_effort', 'kcal/(kg·h)', { qty: 3.2 }, '2026-05-20'),
          block('active_energy', 'kcals', { qty: 420 }),
          block('blood_pressure', 'mm[Hg]', { systolic: 121, diastolic: 79 }),
        ],
      },
    };
    const r = await srv.push(JSON.stringify(body));
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('cycling')).toEqual([
      { date: DAY, watts: 210 },
      { date: '2026-05-20', watts: 250 },
    ]);
    expect(await srv.rows('running')).toEqual([{ date: DAY, watts: 260 }]);
    expect(await srv.rows('effort')).toEqual([
      { date: DAY, met: 6.5 },
      { date: '2026-05-20', met: 3.2 },
    ]);
    expect(await srv.rows('energy')).toEqual([{ date: DAY, kcal: 420 }]);
    expect(await srv.rows('pressure')).toEqual([{ date: DAY, systolic: 121, diastolic: 79 }]);
  });
});
