/**
 * Undoing an Apple Health import after the phone pushed since (and the other way round). The
 * import writes a card's rows as one whole-array change; a later push writes some days again. A
 * person expects the undo to take the import's rows off and leave the push's: when the two wrote
 * different days there is nothing in the way. When they wrote the same day the undo is refused,
 * and the refusal names the change really in the way: who made it (in words) and when.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** An export.xml of 100 steps at 08:00 (+0000) on each of the days `from`..`to` of May 2026. */
function stepsExport(from: number, to: number): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<HealthData locale="en_US">'];
  for (let d = from; d <= to; d++) {
    const at = `2026-05-${String(d).padStart(2, '0')} 08:00:00 +0000`;
    lines.push(
      ` <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" creationDate="${at}" startDate="${at}" endDate="${at}" value="100"/>`,
    );
  }
  lines.push('</HealthData>');
  return lines.join('\n');
}

/** A phone push of `qty` steps at `hour`:00 (+0000) on each of `days` of May 2026. */
function stepsPush(days: number[], hour = '12', qty = 40): Buffer {
  const data = days.map((d) => ({
    date: `2026-05-${String(d).padStart(2, '0')} ${hour}:00:00 +0000`,
    qty,
    source: 'iPhone',
  }));
  return Buffer.from(JSON.stringify({ data: { metrics: [{ name: 'step_count', units: 'count', data }] } }));
}

/** The newest change set of `actor` (`hae` or `import`). */
async function newestSet(s: IngestServer, actor: string): Promise<{ id: number; ts: string }> {
  const list = await s.api(`/api/changes?actor=${actor}`);
  expect(list.status).toBe(200);
  return list.body.changeSets[0];
}

const day = (d: number) => `2026-05-${String(d).padStart(2, '0')}`;

describe('undoing an import after a later push', () => {
  it('takes the import rows off and keeps the rows of the push when they are other days', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    expect((await srv.importExport(stepsExport(1, 5))).body).toMatchObject({
      ok: true,
      ingested: { steps: 5 },
    });
    const imported = await newestSet(srv, 'import');
    // the phone, later: two new days (one of them written into the middle of nothing: after the import's days)
    expect((await srv.push(stepsPush([6, 7]))).body).toMatchObject({ ok: true, ingested: { steps: 2 } });

    const undo = await srv.api(`/api/changes/${imported.id}/undo`, { method: 'POST' });
    expect(undo.status, undo.text).toBe(200);
    expect(await srv.rows('steps')).toEqual([
      { date: day(6), count: 40 },
      { date: day(7), count: 40 },
    ]);

    // the undo can be undone in turn: the import's days come back beside the push's
    const redo = await srv.api(`/api/changes/${undo.body.changeSet.id}/undo`, { method: 'POST' });
    expect(redo.status, redo.text).toBe(200);
    expect((await srv.rows('steps')).map((r) => r.date)).toEqual([1, 2, 3, 4, 5, 6, 7].map(day));

    // and the push alone can still be undone: its two days go, the import's stay
    const push = await newestSet(srv, 'hae');
    const undoPush = await srv.api(`/api/changes/${push.id}/undo`, { method: 'POST' });
    expect(undoPush.status, undoPush.text).toBe(200);
    expect((await srv.rows('steps')).map((r) => r.date)).toEqual([1, 2, 3, 4, 5].map(day));
  });

  it('is refused when the push wrote one of the same days, naming the push and when it came', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    expect((await srv.importExport(stepsExport(1, 5))).status).toBe(200);
    const imported = await newestSet(srv, 'import');
    expect((await srv.push(stepsPush([5]))).body).toMatchObject({ ok: true, ingested: { steps: 1 } });
    const push = await newestSet(srv, 'hae');
    const before = await srv.rows('steps');

    const undo = await srv.api(`/api/changes/${imported.id}/undo`, { method: 'POST' });
    expect(undo.status).toBe(409);
    expect(undo.body.code).toBe('UNDO_CONFLICT');
    expect(undo.body.error).toContain(`Health Auto Export at ${push.ts} (change ${push.id})`);
    expect(undo.body.error).toContain(day(5));
    expect(undo.body.conflicts[0]).toMatchObject({ setId: push.id, actor: 'hae', cardId: 'steps' });
    expect(await srv.rows('steps')).toEqual(before);
  });

  it('names the import, not the phone, when a later import is in the way of undoing a push', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    expect((await srv.push(stepsPush([3, 4]))).status).toBe(200);
    const push = await newestSet(srv, 'hae');
    // an export with other samples of the same days (and more), imported after the push
    expect((await srv.importExport(stepsExport(1, 5))).status).toBe(200);
    const imported = await newestSet(srv, 'import');

    const undo = await srv.api(`/api/changes/${push.id}/undo`, { method: 'POST' });
    expect(undo.status).toBe(409);
    expect(undo.body.error).toContain(`Apple Health import at ${imported.ts} (change ${imported.id})`);
    expect(undo.body.error).not.toMatch(/by hae\b/);
    expect(undo.body.conflicts[0]).toMatchObject({ setId: imported.id, actor: 'import' });
  });
});
