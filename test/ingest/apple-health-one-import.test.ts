/**
 * One Apple Health import at a time: an upload while another is still arriving is refused 409
 * IMPORT_RUNNING (nothing kept), and the progress route goes on following the running import; an
 * upload refused after it arrived reads as failed with its code at 0 %, not 99.9 %.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** An export of `days` days of steps. */
function exportXml(days: number): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<HealthData locale="en_US">'];
  for (let d = 0; d < days; d++) {
    const at = new Date(Date.UTC(2025, 0, 1) + d * 86_400_000).toISOString().slice(0, 10);
    lines.push(
      ` <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" creationDate="${at} 09:00:00 +0100" startDate="${at} 09:00:00 +0100" endDate="${at} 09:00:00 +0100" value="1000"/>`,
    );
  }
  lines.push('</HealthData>', '');
  return lines.join('\n');
}

const progress = async (s: IngestServer) => (await s.api('/api/apple-health/import/progress')).body;
const upload = (s: IngestServer, body: Buffer | string) =>
  s.api('/api/apple-health/import', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/octet-stream' },
  });

/** Starts an upload of `body` with its Content-Length, sends `first` bytes and holds the rest. */
function slowUpload(s: IngestServer, body: Buffer, first: number) {
  const u = new URL(`${s.url}/api/apple-health/import`);
  let finish: () => void = () => {};
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: { 'content-length': String(body.length), 'content-type': 'application/octet-stream' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.write(body.subarray(0, first));
    finish = () => req.end(body.subarray(first));
  });
  return { answer, finish: () => finish() };
}

describe('a second upload while an import runs', () => {
  it('is 409 IMPORT_RUNNING, nothing kept, and the progress route keeps following the first', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const big = Buffer.from(exportXml(400));
    const first = slowUpload(s, big, 20_000);
    let during = await progress(s);
    for (let i = 0; i < 500 && !(during.receivedBytes >= 20_000); i++) {
      await new Promise((r) => setTimeout(r, 10));
      during = await progress(s);
    }
    expect(during).toMatchObject({ running: true, phase: 'uploading', totalBytes: big.length });

    // a small good export, then a file that is not one: both refused, neither touches the record
    for (const body of [exportXml(1), 'not an export at all']) {
      const second = await upload(s, body);
      expect(second.status, second.text).toBe(409);
      expect(second.body.code).toBe('IMPORT_RUNNING');
      expect(second.body.error).toContain(during.startedAt);
      expect(second.body.error).toMatch(/\d+(\.\d)? % done/);
      const now = await progress(s);
      expect(now).toMatchObject({ running: true, phase: 'uploading', startedAt: during.startedAt });
      expect(now.totalBytes).toBe(big.length);
    }
    // only the running upload's file is in the uploads folder
    expect(fs.readdirSync(s.inst.hae.dirs.uploads)).toHaveLength(1);

    first.finish();
    const done = await first.answer;
    expect(done.status, done.text).toBe(200);
    expect(JSON.parse(done.text)).toMatchObject({ ok: true, records: 400, newSamples: 400 });
    expect(await progress(s)).toMatchObject({
      running: false,
      phase: 'done',
      percent: 100,
      receivedBytes: big.length,
      startedAt: during.startedAt,
    });
    expect(fs.readdirSync(path.join(s.inst.hae.dirs.uploads))).toEqual([]);

    // once it is done, the next upload is taken
    const after = await upload(s, exportXml(1));
    expect(after.status, after.text).toBe(200);
  });
});

describe('an upload refused once it has arrived', () => {
  it('reads as failed with its code at 0 %, not 99.9 % with every byte received', async () => {
    const s = await startIngestServer();
    srv = s;
    // a zip that is cut short: refused while it is unpacked, after all of it arrived
    const body = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(5000, 7)]);
    const r = await upload(s, body);
    expect(r.status, r.text).toBe(422);
    const p = await progress(s);
    expect(p).toMatchObject({ running: false, phase: 'failed', code: r.body.code, percent: 0, bytesRead: 0 });
    expect(p.receivedBytes).toBe(body.length);
  });
});
