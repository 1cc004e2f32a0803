/**
 * History (`GET /api/changes`) tells a phone push and an Apple Health import in a person's
 * words: who did it and how many rows of which card, over which days, also when the rows were
 * written as one whole-array change (a first fill, a long import), which used to read "Updated
 * the data of …" whatever it did.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** A step_count body: 100 steps at 08:00 on each of the days `from`..`to` of March 2024 (`qty` each). */
function stepsBody(from: number, to: number, qty = 100): Buffer {
  const data = [];
  for (let d = from; d <= to; d++) {
    data.push({ date: `2024-03-${String(d).padStart(2, '0')} 08:00:00 +0000`, qty, source: 'iPhone' });
  }
  return Buffer.from(JSON.stringify({ data: { metrics: [{ name: 'step_count', units: 'count', data }] } }));
}

/** An export.xml of 100 steps at 08:00 on each of `days` days from 1 May 2026. */
function stepsExport(days: number): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<HealthData locale="en_US">'];
  for (let d = 1; d <= days; d++) {
    const at = `2026-05-${String(d).padStart(2, '0')} 08:00:00 +0000`;
    lines.push(
      ` <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" creationDate="${at}" startDate="${at}" endDate="${at}" value="100"/>`,
    );
  }
  lines.push('</HealthData>');
  return lines.join('\n');
}

async function summaries(s: IngestServer): Promise<string[]> {
  const list = await s.api('/api/changes');
  expect(list.status).toBe(200);
  return (list.body.changeSets as { summary: string }[]).map((c) => c.summary);
}

describe('History of pushes and imports', () => {
  it('says who added or changed how many rows, over which days', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    expect((await srv.push(stepsBody(1, 3))).body).toMatchObject({ ingested: { steps: 3 } });
    expect((await summaries(srv))[0]).toBe(
      'Health Auto Export added 3 rows to HAE step_count (2024-03-01 to 2024-03-03)',
    );

    // the day in progress sent again with more steps, and the next day
    const data = [
      { date: '2024-03-03 09:00:00 +0000', qty: 50, source: 'iPhone' },
      { date: '2024-03-04 08:00:00 +0000', qty: 70, source: 'iPhone' },
    ];
    const later = Buffer.from(
      JSON.stringify({ data: { metrics: [{ name: 'step_count', units: 'count', data }] } }),
    );
    expect((await srv.push(later)).body).toMatchObject({ ingested: { steps: 2 } });
    expect((await summaries(srv))[0]).toBe(
      'Health Auto Export added 1 row to HAE step_count, changed 1 row in HAE step_count (2024-03-03 to 2024-03-04)',
    );

    expect((await srv.importExport(stepsExport(5))).status).toBe(200);
    const list = (await srv.api('/api/changes')).body.changeSets as { id: number; summary: string }[];
    expect(list[0].summary).toBe(
      'Apple Health import added 5 rows to HAE step_count (2026-05-01 to 2026-05-05)',
    );

    const undo = await srv.api(`/api/changes/${list[0].id}/undo`, { method: 'POST' });
    expect(undo.status).toBe(200);
    expect(undo.body.changeSet.summary).toBe(
      'Undid: Apple Health import added 5 rows to HAE step_count (2026-05-01 to 2026-05-05)',
    );
    for (const line of await summaries(srv)) expect(line).not.toMatch(/updated the data/i);
  });
});
