/**
 * History's Undo of an Apple Health import still puts the samples back after a restore. An import
 * that restated samples an older import stored (the part before midnight of a record stored whole
 * takes its place) notes what it changed, keyed by its push; the undo of its change set puts the
 * samples back from those notes. A restore brings back the snapshot's samples and pushes, and must
 * bring their notes too: here the person first restored the wrong snapshot (one from before the
 * import), the phone went on pushing long enough for the home to forget that import's notes, then
 * restored the right one and undid the import. Before, the rows came back but the samples stayed
 * restated, so the next recompute counted the part instead of the whole record. Real server,
 * restores through POST /api/backups/:name/restore, undo through History's route.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HAE_PUSHES_KEEP } from '../../src/ingest/hae/env.js';
import { importJobEnd } from '../helpers/import-job.js';
import { exportXml, haeCard, type IngestServer, metricsPush, startIngestServer } from './helpers.js';
import { storeWholeRecords, WALK_RECORDS } from './midnight-walk.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const XML = exportXml(WALK_RECORDS, { exportDate: '2026-04-20 08:00:00 +0200' });

/** The stored step samples of 17 April: date, stamp and values. */
function stepSamples(s: IngestServer): unknown[] {
  return s.inst.db
    .prepare(
      "SELECT date, at, vals FROM hae_samples WHERE metric = 'step_count' AND date = '2026-04-17' ORDER BY at, vals",
    )
    .all();
}

async function snapshot(s: IngestServer): Promise<string> {
  const snap = await s.api('/api/backups', { method: 'POST' });
  expect(snap.status, snap.text).toBe(201);
  return snap.body.snapshot.name as string;
}

async function restore(s: IngestServer, name: string): Promise<void> {
  const go = await s.api(`/api/backups/${name}/restore`, { json: { confirm: 'REPLACE' } });
  expect(go.status, go.text).toBe(202);
  expect(await importJobEnd(s, '')).toMatchObject({ state: 'done' });
}

describe('undoing an import after a restore', () => {
  it('puts the samples it restated back, from the notes the snapshot brought', async () => {
    srv = await startIngestServer();
    const s = srv;
    storeWholeRecords(s, [
      { metric: 'step_count', units: 'count', date: '2026-04-17 18:00:00 +0200', qty: '1200' },
      { metric: 'step_count', units: 'count', date: '2026-04-17 23:50:00 +0200', qty: '100' },
    ]);
    await s.createCard(haeCard('steps', 'step_count'));
    const before = stepSamples(s);
    expect(await s.rows('steps')).toEqual([{ date: '2026-04-17', count: 1300 }]);
    const beforeImport = await snapshot(s);

    await s.importKnown(XML);
    const imports = await s.api('/api/changes?actor=import');
    const importSet = imports.body.changeSets[0].id as number;
    const afterImport = await snapshot(s);

    // the wrong snapshot first; the phone then pushes for a while (more pushes than the list keeps)
    await restore(s, beforeImport);
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

    // then the right one, and the import is undone from History
    await restore(s, afterImport);
    expect(stepSamples(s)).not.toEqual(before);
    const undo = await s.api(`/api/changes/${importSet}/undo`, { method: 'POST' });
    expect(undo.status, undo.text).toBe(200);
    expect(await s.rows('steps')).toEqual([{ date: '2026-04-17', count: 1300 }]);
    expect(stepSamples(s)).toEqual(before);
  });
});
