/**
 * Health Auto Export writes the numbers of its CSV export as the phone's region writes them: on a
 * phone set to a decimal-comma region (Germany, Spain, Brazil) a step count of 12 345 is
 * `12.345` and a weight `72,5`; on an English one a count may be `1,234` beside `72.5`. Within one
 * file the region is one: a number that shows its decimal mark (`72,5`, `7,9`) tells how the
 * other numbers of the file are written. Before, `12.345` steps beside `72,5` kg was read as 12
 * steps, and `1,234` beside `72.5` was left out as a number that cannot tell its marks apart.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const CARDS: [string, string][] = [
  ['steps', 'step_count'],
  ['weight', 'weight_body_mass'],
  ['energy', 'active_energy'],
  ['workouts', 'workouts'],
];

describe('numbers of a CSV export in the phone region', () => {
  it('a decimal-comma region: 12.345 steps is twelve thousand, 72,5 kg seventy-two and a half', async () => {
    const s = await startIngestServer({ cards: CARDS });
    srv = s;
    const r = await s.pushCsv(
      [
        'Date/Time;Step Count (count);Weight & Body Mass (kg);Active Energy (kcal)',
        '2026-07-11 00:00:00;12.345;72,5;1.079,45',
        '2026-07-12 00:00:00;9.870;;625',
        '2026-07-13 00:00:00;845;72,25;512,5',
      ].join('\r\n'),
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings, r.text).toBeUndefined();
    expect(await s.rows('steps')).toEqual([
      { date: '2026-07-11', count: 12345 },
      { date: '2026-07-12', count: 9870 },
      { date: '2026-07-13', count: 845 },
    ]);
    expect(await s.rows('weight')).toEqual([
      { date: '2026-07-11', kg: 72.5 },
      { date: '2026-07-13', kg: 72.25 },
    ]);
    expect(await s.rows('energy')).toEqual([
      { date: '2026-07-11', kcal: 1079 },
      { date: '2026-07-12', kcal: 625 },
      { date: '2026-07-13', kcal: 513 },
    ]);
  });

  it('the same with commas between the fields and the numbers quoted', async () => {
    const s = await startIngestServer({ cards: CARDS });
    srv = s;
    const r = await s.pushCsv(
      ['Date/Time,Step Count (count),Weight & Body Mass (kg)', '2026-07-11 00:00:00,"12.345","72,5"'].join(
        '\r\n',
      ),
    );
    expect(r.status, r.text).toBe(200);
    expect(await s.rows('steps')).toEqual([{ date: '2026-07-11', count: 12345 }]);
    expect(await s.rows('weight')).toEqual([{ date: '2026-07-11', kg: 72.5 }]);
  });

  it('a decimal-point region: 1,234 steps beside 72.5 kg is one thousand two hundred and thirty-four', async () => {
    const s = await startIngestServer({ cards: CARDS });
    srv = s;
    const r = await s.pushCsv(
      [
        'Date/Time,Step Count (count),Weight & Body Mass (kg)',
        '2026-07-11 00:00:00,"1,234",72.5',
        '2026-07-12 00:00:00,"10,448",',
      ].join('\r\n'),
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings, r.text).toBeUndefined();
    expect(await s.rows('steps')).toEqual([
      { date: '2026-07-11', count: 1234 },
      { date: '2026-07-12', count: 10448 },
    ]);
  });

  it('the workouts file too, by the numbers of the push', async () => {
    const s = await startIngestServer({ cards: CARDS });
    srv = s;
    const r = await s.pushCsv(
      [
        'Workout Type;Start;End;Duration;Active Energy (kcal);Distance (km)',
        'Lauf;2026-07-11 07:00:00;2026-07-11 09:00:00;2:00:00;1.250;21,1',
      ].join('\r\n'),
    );
    expect(r.status, r.text).toBe(200);
    expect(await s.rows('workouts')).toEqual([
      {
        date: '2026-07-11',
        trained: true,
        type: 'Lauf',
        durationMin: 120,
        distanceKm: 21.1,
        calories: 1250,
        startTime: '07:00',
      },
    ]);
  });

  it('a file that does not show its decimal mark is read as before', async () => {
    const s = await startIngestServer({ cards: CARDS });
    srv = s;
    const r = await s.pushCsv(['Date/Time,Step Count (count)', '2026-07-11 00:00:00,"12,345"'].join('\r\n'));
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings).toEqual([
      'step_count: number whose comma or point may be a decimal or a thousands mark (1 point, e.g. "12,345")',
    ]);
    expect(await s.rows('steps')).toEqual([]);
  });
});
