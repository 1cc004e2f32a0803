/**
 * The `cycleTracking` section as Health Auto Export writes it on a phone in another language,
 * through the real webhook: the app translates each record's name and value (`{"name": "Flujo
 * Menstrual", "value": "Pesado"}` on a Spanish phone), and they fill the same metrics as the
 * English words do; a translated word Klebb does not know is still named in a warning as it was
 * sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const CARDS: [string, string][] = [
  ['flow', 'menstrual_flow'],
  ['spotting', 'intermenstrual_bleeding'],
  ['mucus', 'cervical_mucus_quality'],
  ['ovulation', 'ovulation_test'],
  ['pregnancy', 'pregnancy_test'],
  ['sex', 'sexual_activity'],
];

const at = (day: number, hour = '00') => `2026-03-${String(day).padStart(2, '0')} ${hour}:00:00 +0100`;

/** One record of each kind, in Spanish (as the app's Spanish phone sends them), German and French. */
const RECORDS = [
  { start: at(2), end: at(2, '23'), name: 'Flujo Menstrual', value: 'Pesado', source: 'Salud' },
  { start: at(3), end: at(3, '23'), name: 'Flujo Menstrual', value: 'Ligero' },
  { start: at(4), end: at(4, '23'), name: 'Menstruationsblutung', value: 'Mittel' },
  { start: at(5), end: at(5, '23'), name: 'Flux menstruel', value: 'Aucun' },
  { start: at(9), name: 'Sangrado Intermenstrual' },
  { start: at(14, '08'), name: 'Calidad del Moco Cervical', value: 'Clara de Huevo' },
  { start: at(13, '08'), name: 'Zervixschleimqualität', value: 'Cremig' },
  { start: at(15, '08'), name: 'Resultado de la Prueba de Ovulación', value: 'Positivo' },
  { start: at(12, '08'), name: "Test d'ovulation", value: 'Négatif' },
  { start: at(28, '08'), name: 'Prueba de Embarazo', value: 'Negativo' },
  { start: at(16, '22'), name: 'Actividad Sexual', value: 'Con protección' },
  { start: at(17), name: 'Flujo Menstrual', value: 'Mucho' },
];

describe('cycle tracking in the phone language', () => {
  it('translated names and values fill the same metrics as English ones', async () => {
    const s = await startIngestServer({ cards: CARDS });
    srv = s;
    const r = await s.push(JSON.stringify({ data: { metrics: [], workouts: [], cycleTracking: RECORDS } }));
    expect(r.status, r.text).toBe(200);
    expect([...r.body.warnings].sort()).toEqual([
      'menstrual_flow: no menstrual flow, not counted (1 point, e.g. "Aucun")',
      'menstrual_flow: unknown menstrual flow, left out (1 point, e.g. "Mucho")',
    ]);
    expect(await s.rows('flow')).toEqual([
      { date: '2026-03-02', logged: true },
      { date: '2026-03-03', logged: true },
      { date: '2026-03-04', logged: true },
    ]);
    expect(await s.rows('spotting')).toEqual([{ date: '2026-03-09', logged: true }]);
    expect(await s.rows('mucus')).toEqual([
      { date: '2026-03-13', quality: 3 },
      { date: '2026-03-14', quality: 5 },
    ]);
    expect(await s.rows('ovulation')).toEqual([
      { date: '2026-03-12', negative: 1 },
      { date: '2026-03-15', positive: 1 },
    ]);
    expect(await s.rows('pregnancy')).toEqual([{ date: '2026-03-28', negative: 1 }]);
    expect(await s.rows('sex')).toEqual([{ date: '2026-03-16', logged: true }]);
  });
});
