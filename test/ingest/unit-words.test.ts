/**
 * Units as scripts and other exporters write them, pushed through the real webhook: spelled out
 * as words (`milliseconds`, `miles`, `kilocalories`, `beats per minute`), sound levels in
 * A-weighted decibels (`dBA`, `dB(A)`), and a value written as text with its unit (`"70.5 kg"`,
 * `"98.6 °F"`). Each is converted like the symbol; a word that names two units is still refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** One block of one point on 10 May 2026. */
function one(name: string, units: string, qty: unknown): Record<string, unknown> {
  return { name, units, data: [{ date: '2026-05-10 09:00:00 +0200', qty, source: 'Script' }] };
}

describe('units written otherwise', () => {
  it('spelled out as words, and A-weighted decibels', async () => {
    srv = await startIngestServer({
      cards: [
        ['hrv', 'heart_rate_variability'],
        ['distance', 'walking_running_distance'],
        ['energy', 'active_energy'],
        ['resting', 'resting_heart_rate'],
        ['noise', 'environmental_audio_exposure'],
        ['headphones', 'headphone_audio_exposure'],
        ['daylight', 'time_in_daylight'],
      ],
    });
    const r = await srv.push(
      JSON.stringify({
        data: {
          metrics: [
            one('heart_rate_variability', 'milliseconds', 48),
            one('walking_running_distance', 'miles', 2),
            one('active_energy', 'kilocalories', 420),
            one('resting_heart_rate', 'beats per minute', 57),
            one('environmental_audio_exposure', 'dBA', 62),
            one('headphone_audio_exposure', 'dB(A)', 71),
            one('time_in_daylight', 'Minutes', 35),
          ],
        },
      }),
    );
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('hrv')).toEqual([{ date: '2026-05-10', ms: 48 }]);
    expect(await srv.rows('distance')).toEqual([{ date: '2026-05-10', km: 3.22 }]);
    expect(await srv.rows('energy')).toEqual([{ date: '2026-05-10', kcal: 420 }]);
    expect(await srv.rows('resting')).toEqual([{ date: '2026-05-10', bpm: 57 }]);
    expect(await srv.rows('noise')).toEqual([{ date: '2026-05-10', db: 62 }]);
    expect(await srv.rows('headphones')).toEqual([{ date: '2026-05-10', db: 71 }]);
    expect(await srv.rows('daylight')).toEqual([{ date: '2026-05-10', minutes: 35 }]);
  });

  it('a value written as text with its unit', async () => {
    srv = await startIngestServer({
      cards: [
        ['weight', 'weight_body_mass'],
        ['temp', 'body_temperature'],
        ['water', 'dietary_water'],
      ],
    });
    const r = await srv.push(
      JSON.stringify({
        data: {
          metrics: [
            one('weight_body_mass', '', '70.5 kg'),
            one('body_temperature', 'degC', '98.6 °F'),
            one('dietary_water', 'mL', '0,5 L'),
          ],
        },
      }),
    );
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('weight')).toEqual([{ date: '2026-05-10', kg: 70.5 }]);
    expect(await srv.rows('temp')).toEqual([{ date: '2026-05-10', degC: 37 }]);
    expect(await srv.rows('water')).toEqual([{ date: '2026-05-10', ml: 500 }]);
  });

  it('a word that names two units is not guessed', async () => {
    srv = await startIngestServer({ cards: [['energy', 'active_energy']] });
    const r = await srv.push(JSON.stringify({ data: { metrics: [one('active_energy', 'calories', 420)] } }));
    expect(r.body.warnings).toEqual([
      'active_energy: unknown unit "calories" for active_energy (1 point, e.g. 420)',
    ]);
    expect(await srv.rows('energy')).toEqual([]);
  });
});
