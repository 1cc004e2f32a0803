/**
 * An Apple Health import undone, then the same file imported again: undo takes the import's rows
 * off the cards but its samples stay stored, so the second import finds nothing new. The days it
 * offers that the card has no row for are put back; a row entered by hand meanwhile stays.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

const Q = 'HKQuantityTypeIdentifier';

/** Ten StepCount records on each of `days` days from 1 May 2026 (+0000), 100 steps each. */
function stepsExport(days: number): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<HealthData locale="en_US">'];
  for (let d = 0; d < days; d++) {
    for (let i = 0; i < 10; i++) {
      const at = `2026-05-${String(d + 1).padStart(2, '0')} ${String(8 + i).padStart(2, '0')}:00:00 +0000`;
      lines.push(
        ` <Record type="${Q}StepCount" sourceName="iPhone" unit="count" creationDate="${at}" startDate="${at}" endDate="${at}" value="100"/>`,
      );
    }
  }
  lines.push('</HealthData>');
  return lines.join('\n');
}

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** Undoes the newest change set of the import actor. */
async function undoImport(s: IngestServer): Promise<void> {
  const list = await s.api('/api/changes?actor=import');
  expect(list.status).toBe(200);
  const set = list.body.changeSets[0];
  expect(set.actor).toBe('import');
  const undo = await s.api(`/api/changes/${set.id}/undo`, { method: 'POST' });
  expect(undo.status).toBe(200);
}

describe('importing a file again after its import was undone', () => {
  it('puts its days back on the card', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const xml = stepsExport(5);
    expect((await srv.importExport(xml)).body).toMatchObject({ ok: true, newSamples: 50 });
    expect((await srv.rows('steps')).length).toBe(5);
    await undoImport(srv);
    expect(await srv.rows('steps')).toEqual([]);

    const again = await srv.importExport(xml);
    expect(again.body).toMatchObject({ ok: true, newSamples: 0, ingested: { steps: 5 } });
    expect(await srv.rows('steps')).toEqual(
      [1, 2, 3, 4, 5].map((d) => ({ date: `2026-05-0${d}`, count: 1000 })),
    );
    // and a third time: every day has its row, nothing is written
    expect((await srv.importExport(xml)).body).toMatchObject({
      ok: true,
      newSamples: 0,
      ingested: { steps: 0 },
    });
  });

  it('keeps the row a card has for one of those days, and fills the new days of a longer file', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    expect((await srv.importExport(stepsExport(3))).status).toBe(200);
    await undoImport(srv);
    // a row for one of those days meanwhile (the card is read-only over the API: through the
    // store, as a restore or a hand edit of the data would put it)
    srv.inst.cards.store.append('steps', [], '', { date: '2026-05-02', count: 4321 }, 'file');

    // a newer export: the same three days and two more
    const again = await srv.importExport(stepsExport(5));
    expect(again.body).toMatchObject({ ok: true, newSamples: 20 });
    expect(await srv.rows('steps')).toEqual([
      { date: '2026-05-01', count: 1000 },
      { date: '2026-05-02', count: 4321 },
      { date: '2026-05-03', count: 1000 },
      { date: '2026-05-04', count: 1000 },
      { date: '2026-05-05', count: 1000 },
    ]);
  });
});
