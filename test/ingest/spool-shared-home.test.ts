/**
 * The server and the import script may work on one home at once. Opening the home empties the
 * spool folders of files a dead run left behind, never a file a live process is still using: an
 * upload arriving at the server survives the script starting on the same home, and the script's
 * unpacked copy carries its owner so the server leaves it alone too.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main as importMain } from '../../scripts/import-apple-health.js';
import {
  isLeftOver,
  removeLeftOverSpool,
  spoolName,
  spoolOwnerPrefix,
} from '../../src/ingest/spool-files.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
const tmp: string[] = [];
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  for (const d of tmp.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function exportXml(days: number): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<HealthData locale="de_DE">'];
  for (let d = 0; d < days; d++) {
    const at = new Date(Date.UTC(2024, 2, 1) + d * 86_400_000).toISOString().slice(0, 10);
    lines.push(
      ` <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Telefon" unit="count" creationDate="${at} 08:00:00 +0100" startDate="${at} 08:00:00 +0100" endDate="${at} 08:10:00 +0100" value="${500 + d}"/>`,
    );
  }
  lines.push('</HealthData>', '');
  return lines.join('\n');
}

/** Sends `first` bytes of an upload of `body` and holds the rest until `finish`. */
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

describe('the import script on the home of a running server', () => {
  it('leaves the upload the server is receiving in place, and both imports succeed', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const big = Buffer.from(exportXml(300));
    const up = slowUpload(s, big, 10_000);
    for (let i = 0; i < 500 && fs.readdirSync(s.inst.hae.dirs.uploads).length === 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    const spooled = fs.readdirSync(s.inst.hae.dirs.uploads);
    expect(spooled).toHaveLength(1);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-spool-'));
    tmp.push(dir);
    const small = path.join(dir, 'export.xml');
    fs.writeFileSync(small, exportXml(2).replace(/2024-03/g, '2023-03'));
    const out: string[] = [];
    const code = await importMain([small, '--home', s.inst.layout.home], {
      out: (t) => out.push(t),
      err: () => {},
    });
    expect(code).toBe(0);
    expect(fs.readdirSync(s.inst.hae.dirs.uploads)).toEqual(spooled);

    up.finish();
    const done = await up.answer;
    expect(done.status, done.text).toBe(200);
    expect(JSON.parse(done.text)).toMatchObject({ ok: true, records: 300, newSamples: 300 });
  });
});

describe('left-over spool files', () => {
  it('are the files of dead processes and earlier runs; live owners keep theirs', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-spool-'));
    tmp.push(dir);
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
      const host = spoolOwnerPrefix().split('.')[0];
      const mine = spoolName('xml');
      const live = `${host}.${child.pid}.abcd1234-1700000000000-aa.xml`;
      const gone = `${host}.${dead}.abcd1234-1700000000000-bb.xml`;
      const earlierRun = `${host}.${process.pid}.00000000-1700000000000-cc.xml`;
      const otherHost = `ffffffff.${dead}.abcd1234-1700000000000-dd.xml`;
      const unnamed = '1700000000000-ee.counts';
      for (const n of [mine, live, gone, earlierRun, otherHost, unnamed])
        fs.writeFileSync(path.join(dir, n), 'x');
      expect(removeLeftOverSpool(dir).sort()).toEqual([earlierRun, gone, unnamed].sort());
      expect(fs.readdirSync(dir).sort()).toEqual([live, mine, otherHost].sort());
      // a live owner's file long untouched is left over all the same
      expect(isLeftOver(live, Date.now() - 30 * 86_400_000)).toBe(true);
    } finally {
      child.kill();
    }
  });
});
