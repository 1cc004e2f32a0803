/**
 * Undoing an Apple Health import that restated what an older import stored. A record that crosses
 * midnight (100 steps from 23:50 to 00:10) is shared between its two days; imported over an older
 * import that stored it whole on its first day, the part before midnight takes that stored
 * sample's place (50) and the part after is added. Undoing the new import (History's Undo) must
 * leave everything as it was before it: the rows and the samples, the whole 100 on the first day,
 * so that a later recompute or importing the export again counts each step once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HAE_PUSHES_KEEP } from '../../src/ingest/hae/env.js';
import { exportXml, haeCard, type IngestServer, metricsPush, startIngestServer } from './helpers.js';
import { storeWholeRecords, WALK_RECORDS } from './midnight-walk.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const XML = exportXml(WALK_RECORDS, { exportDate: '2026-04-20 08:00:00 +0200' });

const SPLIT = [
  { date: '2026-04-17', count: 1250 },
  { date: '2026-04-18', count: 350 },
];

/** Stores what an import made before records were split stored: each record whole on the day it started. */
function storeOldImport(s: IngestServer): void {
  storeWholeRecords(s, [
    { metric: 'step_count', units: 'count', date: '2026-04-17 18:00:00 +0200', qty: '1200' },
    { metric: 'step_count', units: 'count', date: '2026-04-17 23:50:00 +0200', qty: '100' },
    { metric: 'walking_running_distance', units: 'mi', date: '2026-04-17 23:45:00 +0200', qty: '0.31' },
  ]);
}

/** Every stored sample: metric, date, stamp and values. */
function samples(s: IngestServer): unknown[] {
  return s.inst.db
    .prepare('SELECT metric, date, at, vals FROM hae_samples ORDER BY metric, date, at, vals')
    .all();
}

async function undoNewestImport(s: IngestServer): Promise<number> {
  const list = await s.api('/api/changes?actor=import');
  expect(list.status).toBe(200);
  const undo = await s.api(`/api/changes/${list.body.changeSets[0].id}/undo`, { method: 'POST' });
  expect(undo.status, undo.text).toBe(200);
  return undo.body.changeSet.id as number;
}

describe('undoing an import that restated what an older import stored', () => {
  it('puts back the rows and the samples as they were before it', async () => {
    srv = await startIngestServer();
    const s = srv;
    storeOldImport(s);
    // the cards are made afterwards and filled from the stored samples
    await s.createCard(haeCard('steps', 'step_count'));
    await s.createCard(haeCard('distance', 'walking_running_distance'));
    const rowsBefore = [await s.rows('steps'), await s.rows('distance')];
    expect(rowsBefore[0]).toEqual([{ date: '2026-04-17', count: 1300 }]);
    const samplesBefore = samples(s);

    await s.importKnown(XML);
    expect(await s.rows('steps')).toEqual(SPLIT);

    const undoId = await undoNewestImport(s);
    expect([await s.rows('steps'), await s.rows('distance')]).toEqual(rowsBefore);
    // the samples stored before have their values back, and the parts after midnight are gone;
    // the import's own new sample (300 steps on the 18th) stays, as an undone import's samples do
    const kept = {
      metric: 'step_count',
      date: '2026-04-18',
      at: '2026-04-18 09:00:00 +0200',
      vals: '{"count":300}',
    };
    expect(samples(s)).toEqual(
      [...samplesBefore, kept].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)),
    );

    // importing the export again counts each step once
    await s.importKnown(XML);
    expect(await s.rows('steps')).toEqual(SPLIT);

    // and undoing the undo restates the samples as the rows are restated
    await undoNewestImport(s);
    const redo = await s.api(`/api/changes/${undoId}/undo`, { method: 'POST' });
    expect(redo.status, redo.text).toBe(200);
    expect(await s.rows('steps')).toEqual(SPLIT);
    const stepSamples = samples(s).filter((r) => (r as { metric: string }).metric === 'step_count');
    expect(stepSamples.map((r) => (r as { vals: string }).vals)).toEqual([
      '{"count":1200}',
      '{"count":50}',
      '{"count":50,"partOfDay":true}',
      '{"count":300}',
    ]);
  });

  it('after more pushes than their list keeps, still puts the samples back', async () => {
    srv = await startIngestServer();
    const s = srv;
    storeOldImport(s);
    await s.createCard(haeCard('steps', 'step_count'));
    const samplesBefore = samples(s).filter((r) => (r as { date: string }).date === '2026-04-17');
    await s.importKnown(XML);
    // a phone pushing every quarter of an hour sends more pushes in ten days than the list of
    // pushes keeps; the import's change set is still in History, so its undo must still work
    const later = s.inst.db.prepare(
      "INSERT INTO hae_pushes (received_at, origin, bytes, summary) VALUES ('2026-04-21T08:00:00Z', 'hae', 10, '{}')",
    );
    for (let i = 0; i < HAE_PUSHES_KEEP; i++) later.run();
    const push = await s.push(
      metricsPush([
        {
          name: 'heart_rate',
          units: 'count/min',
          data: [{ date: '2026-04-21 08:00:00 +0200', Avg: 60, Min: 60, Max: 60 }],
        },
      ]),
    );
    expect(push.status, push.text).toBe(200);

    await undoNewestImport(s);
    expect(await s.rows('steps')).toEqual([{ date: '2026-04-17', count: 1300 }]);
    // the whole record is back on its day and the part after midnight is gone
    const steps = samples(s).filter((r) => (r as { metric: string }).metric === 'step_count');
    expect(steps.filter((r) => (r as { date: string }).date === '2026-04-17')).toEqual(
      samplesBefore.filter((r) => (r as { metric: string }).metric === 'step_count'),
    );
    expect(steps.map((r) => (r as { vals: string }).vals)).not.toContain('{"count":50,"partOfDay":true}');
  });

  it('of a first import, still takes every row it made off the cards', async () => {
    srv = await startIngestServer({
      cards: [
        ['steps', 'step_count'],
        ['distance', 'walking_running_distance'],
      ],
    });
    await srv.importKnown(XML);
    expect(await srv.rows('steps')).toEqual(SPLIT);
    await undoNewestImport(srv);
    expect(await srv.rows('steps')).toEqual([]);
    expect(await srv.rows('distance')).toEqual([]);
    // sent again, the export fills the cards as the first time
    await srv.importKnown(XML);
    expect(await srv.rows('steps')).toEqual(SPLIT);
  });
});
