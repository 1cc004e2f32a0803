/**
 * A report upload sent again (its answer lost to a slow connection, Upload tapped twice) is the
 * report it already is: the same file under the same name is answered 200 with that report's
 * name and `existing: true`, and nothing is filed twice: one report in the list, one slot of the
 * quota, one original in the archive, nothing left in the inbox. Two sends racing each other file
 * one report. Another file under that name, or the same file under another name, is a new report.
 * Real server, real files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { inbox, settled, upload } from './report-support.js';

let s: TestServer;

beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

beforeEach(async () => {
  await settled(s);
  for (const r of (await s.api('/api/reports')).body.reports) {
    expect((await s.api(`/api/reports/${r.name}`, { method: 'DELETE' })).status).toBeLessThan(300);
  }
});

const list = async () => (await s.api('/api/reports')).body;
const originals = () =>
  fs.readdirSync(path.join(s.home, 'reports', '_archive')).filter((f) => f.endsWith('.csv'));
const lab = Buffer.from('test,value,unit\nLDL,2.9,mmol/L\nHbA1c,5.4,%\n');

describe('a report upload sent again', () => {
  it('is answered with the report it is, filed once', async () => {
    const first = await upload(s, 'Lab März.csv', lab);
    expect(first.status, first.text).toBe(202);
    const again = await upload(s, 'Lab März.csv', lab);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({
      accepted: true,
      filename: first.body.filename,
      used: 1,
      existing: true,
    });
    await settled(s);
    const after = await list();
    expect(after.reports.map((r: { name: string }) => r.name)).toEqual([first.body.filename]);
    expect(after.quota.used).toBe(1);
    expect(originals()).toEqual([`${first.body.filename}.csv`]);
    expect(inbox(s)).toEqual([]);
  });

  it('sent twice at once, files one report', async () => {
    const both = await Promise.all([upload(s, 'lipids.csv', lab), upload(s, 'lipids.csv', lab)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 202]);
    expect(new Set(both.map((r) => r.body.filename)).size).toBe(1);
    await settled(s);
    expect((await list()).reports).toHaveLength(1);
    expect(inbox(s)).toEqual([]);
  });

  it('another file under the same name, or the same file under another name, is a new report', async () => {
    const first = await upload(s, 'lab.csv', lab);
    expect(first.status, first.text).toBe(202);
    const changed = await upload(s, 'lab.csv', Buffer.from('test,value,unit\nLDL,3.1,mmol/L\n'));
    expect(changed.status, changed.text).toBe(202);
    expect(changed.body.filename).not.toBe(first.body.filename);
    const renamed = await upload(s, 'lab copy.csv', lab);
    expect(renamed.status, renamed.text).toBe(202);
    await settled(s);
    expect((await list()).reports).toHaveLength(3);
  });
});
