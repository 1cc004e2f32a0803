/**
 * A card the phone fills that also holds readings entered by hand, through the real webhook, the
 * entry routes and "Fill <card> from the phone": a push never replaces a hand reading on a card
 * that keeps several a day (blood pressure measured twice, blood sugar pricked by hand); it adds
 * the phone's row beside them, and later pushes update that row only, also after a person edited
 * it (then it is theirs). On a card that keeps one reading a day the phone's row replaces the
 * day's entry, as a second entry does there, and the answer says so.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { templateText } from '../helpers/templates.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
let reopened: TestServer | undefined;
afterEach(async () => {
  await reopened?.close({ keepHome: true });
  reopened = undefined;
  const home = srv?.home;
  await srv?.close({ keepHome: true });
  srv = undefined;
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

/** A gallery card as a person made it before it followed the phone, with `rows`. */
function galleryCard(id: string, rows: Record<string, unknown>[]): Record<string, unknown> {
  const t = JSON.parse(templateText(id)) as { meta: Record<string, unknown> };
  const { ingest: _i, template: _t, ...meta } = t.meta;
  return { ...t, meta, data: rows };
}

const bpPush = (points: [string, number, number][]) =>
  JSON.stringify({
    data: {
      metrics: [
        {
          name: 'blood_pressure',
          units: 'mmHg',
          data: points.map(([date, systolic, diastolic]) => ({ date, systolic, diastolic, source: 'Cuff' })),
        },
      ],
    },
  });

const BY_HAND = [
  { date: '2026-05-10', time: '08:00', systolic: 131, diastolic: 85 },
  { date: '2026-05-10', time: '08:02', systolic: 127, diastolic: 83 },
];

describe('readings entered by hand on a card the phone fills', () => {
  it('blood pressure measured twice by hand: both readings stay beside the phone’s, which later pushes update', async () => {
    srv = await startIngestServer();
    await srv.createCard(galleryCard('bp', BY_HAND));
    const c = await srv.api('/api/health-auto-export/cards', {
      method: 'POST',
      json: { metric: 'blood_pressure', card: 'bp' },
    });
    expect(c.status).toBe(200);
    const r = await srv.push(bpPush([['2026-05-10 20:00:00 +0200', 140, 90]]));
    expect(r.status).toBe(200);
    expect(r.body.warnings).toBeUndefined();
    expect(await srv.rows('bp')).toEqual([...BY_HAND, { date: '2026-05-10', systolic: 140, diastolic: 90 }]);

    // a third reading by hand, then a later reading of the day from the phone
    const e = await srv.api('/api/manifests/bp/entries', {
      method: 'POST',
      json: { entry: { date: '2026-05-10', time: '21:00', systolic: 125, diastolic: 80 } },
    });
    expect(e.status).toBe(201);
    const later = await srv.push(bpPush([['2026-05-10 21:30:00 +0200', 150, 95]]));
    expect(later.body.ingested).toEqual({ bp: 1 });
    expect(await srv.rows('bp')).toEqual([
      ...BY_HAND,
      { date: '2026-05-10', systolic: 150, diastolic: 95 },
      { date: '2026-05-10', time: '21:00', systolic: 125, diastolic: 80 },
    ]);
  });

  it('a phone row a person edited is theirs from then on: the next push adds the phone’s row beside it', async () => {
    srv = await startIngestServer();
    await srv.createCard(galleryCard('bp', []));
    await srv.api('/api/health-auto-export/cards', {
      method: 'POST',
      json: { metric: 'blood_pressure', card: 'bp' },
    });
    await srv.push(bpPush([['2026-05-10 20:00:00 +0200', 140, 90]]));
    const edit = await srv.api('/api/manifests/bp/entries/0', {
      method: 'PUT',
      json: { entry: { date: '2026-05-10', time: '20:00', systolic: 141, diastolic: 90 } },
    });
    expect(edit.status).toBe(200);
    await srv.push(bpPush([['2026-05-10 21:30:00 +0200', 150, 95]]));
    expect(await srv.rows('bp')).toEqual([
      { date: '2026-05-10', time: '20:00', systolic: 141, diastolic: 90 },
      { date: '2026-05-10', systolic: 150, diastolic: 95 },
    ]);
  });

  it('blood sugar pricked by hand on the phone-fed gallery card stays when the phone sends the day', async () => {
    srv = await startIngestServer();
    const t = JSON.parse(templateText('glucose')) as { meta: Record<string, unknown> };
    const { template: _t, ...meta } = t.meta;
    await srv.createCard({ ...t, meta, data: [] });
    for (const [time, mmol, context] of [
      ['07:10', 5.4, 'fasting'],
      ['12:40', 7.9, 'after-meal'],
    ] as const) {
      const e = await srv.api(`/api/manifests/${meta.id}/entries`, {
        method: 'POST',
        json: { entry: { date: '2026-05-10', time, mmol, context } },
      });
      expect(e.status).toBe(201);
    }
    const r = await srv.push(
      JSON.stringify({
        data: {
          metrics: [
            {
              name: 'blood_glucose',
              units: 'mmol/L',
              data: [
                { date: '2026-05-10 08:00:00 +0200', qty: 6, source: 'CGM' },
                { date: '2026-05-10 09:00:00 +0200', qty: 7, source: 'CGM' },
              ],
            },
          ],
        },
      }),
    );
    expect(r.body.ingested).toEqual({ [meta.id as string]: 1 });
    expect(await srv.rows(meta.id as string)).toEqual([
      { date: '2026-05-10', time: '07:10', mmol: 5.4, context: 'fasting' },
      { date: '2026-05-10', time: '12:40', mmol: 7.9, context: 'after-meal' },
      { date: '2026-05-10', mmol: 6.5 },
    ]);
  });

  it('a card that keeps one reading a day: the phone’s row replaces the day’s entry, and the answer says so', async () => {
    srv = await startIngestServer();
    const t = JSON.parse(templateText('weight')) as { meta: Record<string, unknown> };
    const { template: _t, ...meta } = t.meta;
    await srv.createCard({ ...t, meta, data: [] });
    const hand = await srv.api('/api/manifests/weight/entries', {
      method: 'POST',
      json: { entry: { date: '2026-05-10', kg: 71.2, note: 'by hand' } },
    });
    expect(hand.status).toBe(201);
    const kg = (date: string, qty: number) =>
      JSON.stringify({
        data: {
          metrics: [{ name: 'weight_body_mass', units: 'kg', data: [{ date, qty, source: 'Scale' }] }],
        },
      });
    const r = await srv.push(kg('2026-05-10 07:00:00 +0200', 70.9));
    expect(r.body.warnings).toEqual([
      "card weight: the phone's reading replaced an entry it had not written on 1 day(s) (2026-05-10), as the card keeps one reading a day; History can undo it",
    ]);
    expect(await srv.rows('weight')).toEqual([{ date: '2026-05-10', kg: 70.9 }]);
    // the phone's own row is updated without a word
    const again = await srv.push(kg('2026-05-10 21:00:00 +0200', 71.4));
    expect(again.body.warnings).toBeUndefined();
    expect(await srv.rows('weight')).toEqual([{ date: '2026-05-10', kg: 71.4 }]);
  });

  it('a home from before the phone’s rows were recorded: the row the phone wrote is recognised, not doubled', async () => {
    srv = await startIngestServer();
    await srv.createCard(galleryCard('bp', BY_HAND));
    await srv.api('/api/health-auto-export/cards', {
      method: 'POST',
      json: { metric: 'blood_pressure', card: 'bp' },
    });
    await srv.push(bpPush([['2026-05-10 20:00:00 +0200', 140, 90]]));
    // as an older server left the card: the phone's row in place of the first hand reading
    const older = [{ date: '2026-05-10', systolic: 140, diastolic: 90 }, BY_HAND[1]];
    expect((await srv.api('/api/manifests/bp/data', { json: { data: older } })).status).toBe(200);
    const dbFile = srv.inst.layout.dbFile;
    await srv.close({ keepHome: true });
    const db = new Database(dbFile);
    db.exec('DROP TABLE hae_card_rows');
    // as before the migration that made hae_card_rows (the eleventh)
    db.pragma('user_version = 10');
    db.close();

    reopened = await startServer({ home: srv.home, watch: false });
    const r = await reopened.api('/api/health-auto-export', {
      method: 'POST',
      body: bpPush([['2026-05-10 21:30:00 +0200', 150, 95]]),
      headers: { 'content-type': 'application/json' },
      token: srv.haeToken,
    });
    expect(r.status).toBe(200);
    expect((await reopened.api('/api/manifests/bp/data')).body.data).toEqual([
      { date: '2026-05-10', systolic: 150, diastolic: 95 },
      BY_HAND[1],
    ]);
  });
});
