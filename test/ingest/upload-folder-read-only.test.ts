/**
 * A small upload into a folder of HEALTH_HOME that refuses writes (its volume remounted
 * read-only: a failing disk the kernel protects, a snapshot mount). The body ends before the
 * spool file's open fails, and the refusal still decides: 503 NOT_SAVED naming the folder,
 * nothing imported or kept, instead of a 500 from reading a file that was never made.
 * Real server, a real read-only tmpfs mount (the tests run as root in CI).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { canMountTmpfs, mountTmpfs, unmountAll } from '../helpers/small-disk.js';

let s: TestServer | undefined;
afterEach(async () => {
  unmountAll();
  await s?.close();
  s = undefined;
});

const exportXml =
  '<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n' +
  ' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" ' +
  'startDate="2026-04-01 08:00:00 +0200" endDate="2026-04-01 09:00:00 +0200" value="1200"/>\n' +
  '</HealthData>\n';

it.runIf(canMountTmpfs())(
  'an Apple Health export uploaded into a read-only uploads folder is 503 NOT_SAVED, nothing imported',
  async () => {
    s = await startServer();
    const uploads = path.join(s.home, 'ingest', 'uploads');
    fs.mkdirSync(uploads, { recursive: true });
    const writable = mountTmpfs(uploads, { readOnly: true });
    const r = await s.api('/api/apple-health/import', {
      body: exportXml,
      headers: { 'content-type': 'application/xml' },
    });
    expect(r.status, r.text).toBe(503);
    expect(r.body.code).toBe('NOT_SAVED');
    expect(r.body.error).toContain('EROFS, the file system is read-only');
    expect(r.body.error).toContain(uploads);
    const progress = await s.api('/api/apple-health/import/progress');
    expect(progress.body.running).toBe(false);
    // the same upload goes through once the folder takes writes again
    writable();
    const again = await s.api('/api/apple-health/import', {
      body: exportXml,
      headers: { 'content-type': 'application/xml' },
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body.newSamples).toBe(1);
  },
);

it.runIf(canMountTmpfs())(
  'a report uploaded into a read-only reports folder is 503 NOT_SAVED, no report listed',
  async () => {
    s = await startServer();
    const reports = path.join(s.home, 'reports');
    fs.mkdirSync(reports, { recursive: true });
    mountTmpfs(reports, { readOnly: true });
    const r = await s.api('/api/reports/upload', {
      body: 'Lab result 2026-04-01\nHemoglobin 14.1 g/dL\n',
      headers: { 'content-type': 'text/plain', 'x-klebb-filename': 'lab.txt' },
    });
    expect(r.status, r.text).toBe(503);
    expect(r.body.code).toBe('NOT_SAVED');
    expect(r.body.error).toContain(reports);
    const list = await s.api('/api/reports');
    expect(list.body.reports).toEqual([]);
    expect(list.body.processing).toEqual([]);
    expect(list.body.quota.used).toBe(0);
  },
);
