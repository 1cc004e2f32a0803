/**
 * Apple Health import progress: the percent and the time left from the bytes read, the line the
 * script prints, the progress route of the server after a finished and a refused import, and the
 * script's progress lines when its output is not a terminal.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import yazl from 'yazl';
import { main as importMain, reportProgress } from '../../scripts/import-apple-health.js';
import {
  etaSeconds,
  formatDuration,
  ImportProgress,
  progressLine,
} from '../../src/ingest/apple-health/progress.js';
import { GENERATED_APPLE } from '../fixtures/apple-health-export.js';
import { sandboxHome } from '../helpers/sandbox-home.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('progress figures', () => {
  it('estimates the time left from the pace so far, once 1 % and 1 s are behind', () => {
    expect(etaSeconds(500, 0.5)).toBeNull();
    expect(etaSeconds(60_000, 0.005)).toBeNull();
    // a quarter in 30 s: three quarters take 90 s more
    expect(etaSeconds(30_000, 0.25)).toBe(90);
    expect(etaSeconds(10_000, 1)).toBe(0);
  });

  it('reads percent, records and time left off the bytes read', () => {
    const p = new ImportProgress(2_000_000_000);
    const t0 = Date.parse(p.view().startedAt);
    p.read(500_000_000, 1_234_567);
    const v = p.view(t0 + 40_000);
    expect(v).toMatchObject({
      running: true,
      phase: 'reading',
      percent: 25,
      records: 1_234_567,
      elapsedSeconds: 40,
      etaSeconds: 120,
    });
    expect(progressLine(v)).toBe('25.0 % · 500.0 MB of 2.00 GB · 1234567 records · about 2 min 0 s left');
    p.filling();
    expect(p.view(t0 + 170_000)).toMatchObject({ phase: 'filling', percent: 99.9, etaSeconds: null });
    p.end();
    expect(p.view(t0 + 171_000)).toMatchObject({
      running: false,
      phase: 'done',
      percent: 100,
      etaSeconds: 0,
    });
    const failed = new ImportProgress(10);
    failed.end(new Error('disk full'));
    expect(failed.view()).toMatchObject({ running: false, phase: 'failed', error: 'disk full' });
    expect([formatDuration(45), formatDuration(200), formatDuration(3900)]).toEqual([
      '45 s',
      '3 min 20 s',
      '1 h 5 min',
    ]);
  });

  it('the script prints a line per 10 % step when not on a terminal, and the last one at the end', () => {
    vi.useFakeTimers();
    try {
      const p = new ImportProgress(1000);
      const lines: string[] = [];
      const stop = reportProgress(p, { out: () => {}, err: (s) => lines.push(s), tty: false, everyMs: 5 });
      for (const [bytes, records] of [
        [50, 10],
        [120, 20],
        [130, 25],
      ]) {
        p.read(bytes, records);
        vi.advanceTimersByTime(5);
      }
      p.end();
      stop();
      expect(lines.map((l) => l.split(' · ')[0])).toEqual(['5.0 %', '12.0 %', '100.0 %']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the progress route and the script', () => {
  it('says nothing ran, then how the last import ended (done, or failed with the reason)', async () => {
    srv = await startIngestServer();
    expect((await srv.api('/api/apple-health/import/progress')).body).toEqual({
      running: false,
      phase: null,
    });
    const xml = GENERATED_APPLE['generated-2016.xml']();
    expect((await srv.api('/api/apple-health/import', { method: 'POST', body: xml })).status).toBe(200);
    const done = (await srv.api('/api/apple-health/import/progress')).body;
    expect(done).toMatchObject({ running: false, phase: 'done', percent: 100, records: 15, etaSeconds: 0 });
    expect(done.bytesRead).toBe(Buffer.byteLength(xml));
    expect(done.totalBytes).toBe(Buffer.byteLength(xml));
    const refused = await srv.api('/api/apple-health/import', {
      method: 'POST',
      body: '<?xml version="1.0"?><Other/>',
    });
    expect(refused.status).toBe(422);
    const failed = (await srv.api('/api/apple-health/import/progress')).body;
    expect(failed).toMatchObject({ running: false, phase: 'failed' });
    expect(failed.error).toMatch(/not an Apple Health export/);
  });

  it('while a file is still uploading, says so instead of showing the previous import', async () => {
    srv = await startIngestServer();
    const xml = Buffer.from(GENERATED_APPLE['generated-2016.xml']());
    expect((await srv.importExport(xml)).status).toBe(200);
    // the next upload sends half its announced bytes, then waits
    const u = new URL(`${srv.url}/api/apple-health/import`);
    const answer = new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: u.hostname,
          port: u.port,
          path: u.pathname,
          method: 'POST',
          headers: { 'content-length': xml.length },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.write(xml.subarray(0, xml.length >> 1));
      setTimeout(() => req.end(xml.subarray(xml.length >> 1)), 300);
    });
    await new Promise((r) => setTimeout(r, 150));
    const during = (await srv.api('/api/apple-health/import/progress')).body;
    expect(during).toMatchObject({
      running: true,
      phase: 'uploading',
      bytesRead: 0,
      totalBytes: xml.length,
      records: 0,
    });
    expect(await answer).toBe(200);
    const done = (await srv.api('/api/apple-health/import/progress')).body;
    // one import from the first byte: its start is the upload's, and its clock stops at the end
    expect(done).toMatchObject({ running: false, phase: 'done', startedAt: during.startedAt });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await srv.api('/api/apple-health/import/progress')).body.elapsedSeconds).toBe(
      done.elapsedSeconds,
    );
    // an upload refused before it is read ends the progress as failed too
    expect((await srv.importExport('')).status).toBe(400);
    expect((await srv.api('/api/apple-health/import/progress')).body).toMatchObject({
      running: false,
      phase: 'failed',
      error: expect.stringMatching(/the body is empty/),
    });
  });

  it('the script ends its progress at 100 %', async () => {
    const box = sandboxHome();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-apple-p-')), 'export.xml');
    fs.writeFileSync(file, GENERATED_APPLE['generated-2016.xml']());
    try {
      const err: string[] = [];
      const code = await importMain([file, '--home', box.home], {
        out: () => {},
        err: (s) => err.push(s),
        tty: false,
      });
      expect(code).toBe(0);
      expect(err.join('')).toMatch(/^100\.0 % · 0\.0 MB of 0\.0 MB · 15 records$/m);
    } finally {
      box.remove();
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
  it("the script reads the Health app's export.zip and a gzip-compressed export.xml as well", async () => {
    const box = sandboxHome();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-apple-z-'));
    const xml = Buffer.from(GENERATED_APPLE['generated-2016.xml']());
    const zip = new yazl.ZipFile();
    zip.addBuffer(xml, 'apple_health_export/export.xml');
    zip.end();
    const zipped = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
      zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
      zip.outputStream.on('error', reject);
    });
    fs.writeFileSync(path.join(dir, 'export.zip'), zipped);
    fs.writeFileSync(path.join(dir, 'export.xml.gz'), zlib.gzipSync(xml));
    try {
      for (const name of ['export.zip', 'export.xml.gz']) {
        const out: string[] = [];
        const err: string[] = [];
        const code = await importMain([path.join(dir, name), '--home', box.home], {
          out: (t) => out.push(t),
          err: (t) => err.push(t),
          tty: false,
        });
        expect(code, err.join('')).toBe(0);
        expect(JSON.parse(out.join('')), name).toMatchObject({ ok: true, records: 15 });
      }
      // the person's files are left as they were, and no unpacked copy stays behind
      expect(fs.readdirSync(dir).sort()).toEqual(['export.xml.gz', 'export.zip']);
      expect(fs.readdirSync(path.join(box.home, 'ingest', 'uploads'))).toEqual([]);
    } finally {
      box.remove();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
