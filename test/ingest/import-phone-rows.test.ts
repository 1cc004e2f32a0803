/**
 * After an export is imported on a new machine, the phone's next push updates the day's phone
 * row the archive brought instead of taking it for a reading entered by hand. Klebb records
 * which row of a day the phone wrote; the archive carries that record (cards/phone-rows.jsonl),
 * or the first push after the import matches only a row equal to what its samples make now and,
 * on a card keeping several readings a day, adds its row beside the imported one whenever the
 * day's reading changed since: one blood pressure reading shown twice. An archive of an older
 * build, without the file, still imports. Real servers, real webhook, export through GET
 * /api/export and import through Settings › Data's routes.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { importJobEnd } from '../helpers/import-job.js';
import { templateText } from '../helpers/templates.js';
import { buildZip, readZip, type ZipEntryBytes } from '../helpers/zip.js';
import { type IngestServer, startIngestServer } from './helpers.js';

const servers: IngestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    const home = s.home;
    await s.close({ keepHome: true });
    fs.rmSync(home, { recursive: true, force: true });
  }
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

/** A server with the blood pressure card (several readings a day) fed by the phone. */
async function bpServer(): Promise<IngestServer> {
  const s = await startIngestServer();
  servers.push(s);
  const t = JSON.parse(templateText('bp')) as { meta: Record<string, unknown> };
  const { ingest: _i, template: _t, ...meta } = t.meta;
  await s.createCard({ ...t, meta, data: [] });
  const sub = await s.api('/api/health-auto-export/cards', {
    method: 'POST',
    json: { metric: 'blood_pressure', card: 'bp' },
  });
  expect(sub.status, sub.text).toBe(200);
  return s;
}

/** The export of `s`, as its entries. */
async function exported(s: IngestServer): Promise<ZipEntryBytes[]> {
  const res = await fetch(`${s.url}/api/export`);
  expect(res.status).toBe(200);
  return readZip(Buffer.from(await res.arrayBuffer()));
}

/** Imports `zip` whole into a fresh server with the same phone and returns it. */
async function importedInto(zip: Buffer): Promise<IngestServer> {
  const s = await startIngestServer();
  servers.push(s);
  const up = await s.api('/api/import/upload', { body: zip, headers: { 'content-type': 'application/zip' } });
  expect(up.status, up.text).toBe(200);
  const start = await s.api('/api/import/start', { method: 'POST' });
  expect(start.status, start.text).toBe(200);
  const go = await s.api('/api/import/apply', { json: { nonce: start.body.nonce } });
  expect(go.status, go.text).toBe(202);
  expect(await importJobEnd(s, '')).toMatchObject({ state: 'done' });
  return s;
}

describe('an imported export and the phone’s next push', () => {
  it('the push updates the phone row the archive brought, not a second row beside it', async () => {
    const a = await bpServer();
    expect((await a.push(bpPush([['2026-05-10 20:00:00 +0200', 140, 90]]))).status).toBe(200);
    const entries = await exported(a);
    expect(entries.map((e) => e.name)).toContain('cards/phone-rows.jsonl');

    const b = await importedInto(await buildZip(entries));
    expect(await b.rows('bp')).toEqual([{ date: '2026-05-10', systolic: 140, diastolic: 90 }]);
    // the phone, now pointed at the new machine, sends a later reading of the day
    expect((await b.push(bpPush([['2026-05-10 21:30:00 +0200', 150, 95]]))).status).toBe(200);
    expect(await b.rows('bp')).toEqual([{ date: '2026-05-10', systolic: 150, diastolic: 95 }]);
  });

  it('an archive without the record (an older build) still imports', async () => {
    const a = await bpServer();
    expect((await a.push(bpPush([['2026-05-10 20:00:00 +0200', 140, 90]]))).status).toBe(200);
    const entries = await exported(a);
    const manifest = entries.find((e) => e.name === 'klebb-export.json');
    if (!manifest) throw new Error('no manifest');
    const m = JSON.parse(manifest.data.toString('utf8'));
    m.inventory.files = m.inventory.files.filter(
      (f: { file: string }) => f.file !== 'cards/phone-rows.jsonl',
    );
    const older = entries
      .filter((e) => e.name !== 'cards/phone-rows.jsonl' && e !== manifest)
      .concat([{ name: 'klebb-export.json', data: Buffer.from(JSON.stringify(m)) }]);
    const b = await importedInto(await buildZip(older));
    expect(await b.rows('bp')).toEqual([{ date: '2026-05-10', systolic: 140, diastolic: 90 }]);
    // the same reading again is recognised by content: still one row
    expect((await b.push(bpPush([['2026-05-10 20:00:00 +0200', 140, 90]]))).status).toBe(200);
    expect(await b.rows('bp')).toEqual([{ date: '2026-05-10', systolic: 140, diastolic: 90 }]);
  });
});
