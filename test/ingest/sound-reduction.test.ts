/**
 * The noise AirPods took off loud surroundings (HKQuantityTypeIdentifierEnvironmentalSoundReduction,
 * in dBASPL, iOS 18) fills `environmental_sound_reduction` ({date, db}, the day's mean), from an
 * Apple Health export and from a push; before, an export's records were counted as a type with no
 * metric and not stored, and no card could follow a pushed block.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { exportXml, healthRecord, type IngestServer, metricsPush, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const TYPE = 'HKQuantityTypeIdentifierEnvironmentalSoundReduction';

function rec(value: string, start: string, end: string): string {
  return healthRecord({ type: TYPE, value, start, end, unit: 'dBASPL', source: 'AirPods Pro' });
}

describe('environmental sound reduction', () => {
  it('from an Apple Health export and a push, apart from the noise heard', async () => {
    const s = await startIngestServer({
      cards: [
        ['reduction', 'environmental_sound_reduction'],
        ['noise', 'environmental_audio_exposure'],
      ],
    });
    srv = s;
    const xml = exportXml([
      rec('18.5', '2026-09-12 08:10:00 -0700', '2026-09-12 08:40:00 -0700'),
      rec('21.5', '2026-09-12 17:00:00 -0700', '2026-09-12 17:30:00 -0700'),
    ]);
    const r = await s.importExport(xml);
    expect(r.status, r.text).toBe(200);
    expect(r.body.unmappedTypes).toEqual({});
    expect(await s.rows('reduction')).toEqual([{ date: '2026-09-12', db: 20 }]);
    const push = await s.push(
      metricsPush([
        {
          name: TYPE,
          units: 'dBASPL',
          data: [{ date: '2026-09-13 08:10:00 -0700', qty: 16, source: 'AirPods Pro' }],
        },
      ]),
    );
    expect(push.status, push.text).toBe(200);
    expect(await s.rows('reduction')).toEqual([
      { date: '2026-09-12', db: 20 },
      { date: '2026-09-13', db: 16 },
    ]);
    expect(await s.rows('noise')).toEqual([]);
  });
});
