/**
 * After a snapshot is restored, the phone's next push updates the day's phone row the snapshot
 * brought back instead of taking it for a reading entered by hand. Klebb records which row of a
 * day the phone wrote; the record must come back with the rows, or the first push after the
 * restore finds none of the rows it remembers and, on a card that keeps several readings a day,
 * adds its row beside the snapshot's phone row: one blood pressure reading shown twice. Real
 * server, real webhook, restore through POST /api/backups/:name/restore.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { templateText } from '../helpers/templates.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  const home = srv?.home;
  await srv?.close({ keepHome: true });
  srv = undefined;
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

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

/** The restore job's status once it stopped applying. */
async function restored(s: TestServer): Promise<Record<string, unknown>> {
  for (let i = 0; i < 1000; i++) {
    const st = await s.api('/api/import/status');
    if (st.body.state !== 'applying') return st.body;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the restore never finished');
}

describe('a restored snapshot and the phone’s next push', () => {
  it('the push updates the phone row the snapshot brought back, not a second row beside it', async () => {
    srv = await startIngestServer();
    const t = JSON.parse(templateText('bp')) as { meta: Record<string, unknown> };
    const { ingest: _i, template: _t, ...meta } = t.meta;
    await srv.createCard({ ...t, meta, data: [] });
    const sub = await srv.api('/api/health-auto-export/cards', {
      method: 'POST',
      json: { metric: 'blood_pressure', card: 'bp' },
    });
    expect(sub.status, sub.text).toBe(200);

    expect((await srv.push(bpPush([['2026-05-10 20:00:00 +0200', 140, 90]]))).status).toBe(200);
    expect(await srv.rows('bp')).toEqual([{ date: '2026-05-10', systolic: 140, diastolic: 90 }]);
    const snap = await srv.api('/api/backups', { method: 'POST' });
    expect(snap.status, snap.text).toBe(201);

    // after the snapshot the phone sends a later reading of the day: its row replaces the first
    await srv.push(bpPush([['2026-05-10 21:30:00 +0200', 150, 95]]));
    expect(await srv.rows('bp')).toEqual([{ date: '2026-05-10', systolic: 150, diastolic: 95 }]);

    const go = await srv.api(`/api/backups/${snap.body.snapshot.name}/restore`, {
      json: { confirm: 'REPLACE' },
    });
    expect(go.status, go.text).toBe(202);
    expect(await restored(srv)).toMatchObject({ state: 'done' });
    expect(await srv.rows('bp')).toEqual([{ date: '2026-05-10', systolic: 140, diastolic: 90 }]);

    // the phone sends the day again: one phone row for the day, as before the snapshot
    const again = await srv.push(bpPush([['2026-05-10 21:30:00 +0200', 150, 95]]));
    expect(again.status).toBe(200);
    expect(await srv.rows('bp')).toEqual([{ date: '2026-05-10', systolic: 150, diastolic: 95 }]);
  });
});
