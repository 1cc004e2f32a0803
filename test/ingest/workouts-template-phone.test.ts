/**
 * The gallery's Workouts card reads the fields the phone's workout rows carry (`durationMin`,
 * `distanceKm`): connected to the phone, it shows the minutes and the distance of each workout,
 * and a workout logged by hand is stored under the same names.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cardReads } from '../../src/common/card-reads.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let s: IngestServer;
beforeAll(async () => {
  s = await startIngestServer();
  const made = await s.api('/api/settings/cards/from-template', { json: { templateId: 'workouts' } });
  expect(made.status, made.text).toBe(201);
});
afterAll(async () => {
  await s.close();
});

it('connected to the phone, it shows what the phone sends', async () => {
  const push = await s.push(
    JSON.stringify({
      data: {
        workouts: [
          {
            name: 'Outdoor Run',
            start: '2026-10-21 07:00:00 -0500',
            end: '2026-10-21 07:40:00 -0500',
            duration: 2400,
            distance: { qty: 6.5, units: 'km' },
          },
        ],
      },
    }),
  );
  expect(push.status, push.text).toBe(200);
  const r = await s.api('/api/health-auto-export/cards', { json: { metric: 'workouts', card: 'workouts' } });
  expect(r.status, r.text).toBe(200);
  const rows = await s.rows('workouts');
  expect(rows).toEqual([expect.objectContaining({ date: '2026-10-21', durationMin: 40, distanceKm: 6.5 })]);
  const card = (await s.api('/api/manifests/workouts')).body;
  // every field the card shows is one the phone's row carries
  const sent = Object.keys(rows[0]);
  expect(cardReads(card.meta).filter((r) => !sent.includes(r.field))).toEqual([]);
  // what the form stores is what the phone sends
  const keys = card.meta.writeable.inputs.map((i: { key: string }) => i.key);
  expect(keys).toEqual(expect.arrayContaining(['durationMin', 'distanceKm']));
  expect(keys).not.toContain('minutes');
  expect(keys).not.toContain('km');
});
