/**
 * An Apple Health export uploaded gzip-compressed without `Content-Encoding` (an export.xml.gz):
 * told by its first bytes and read as the export it holds. One that does not decompress is 400
 * BAD_CONTENT_ENCODING, one that decompresses past KLEBB_APPLE_HEALTH_MAX_BYTES is 413; neither
 * stores anything or leaves a file behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** An export of `days` days of steps, 1000 a day. */
function exportXml(days: number): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<HealthData locale="en_US">'];
  for (let d = 1; d <= days; d++) {
    const at = `2026-03-${String(d).padStart(2, '0')} 09:00:00 +0100`;
    lines.push(
      ` <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" creationDate="${at}" startDate="${at}" endDate="${at}" value="1000"/>`,
    );
  }
  lines.push('</HealthData>', '');
  return lines.join('\n');
}

/** Uploads `body` as application/octet-stream, no Content-Encoding. */
const upload = (s: IngestServer, body: Buffer) =>
  s.api('/api/apple-health/import', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/octet-stream' },
  });

const leftovers = (s: IngestServer) => fs.readdirSync(path.join(s.inst.hae.dirs.uploads));

describe('a gzip-compressed export without Content-Encoding', () => {
  it('is read as the export it holds', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const r = await upload(s, zlib.gzipSync(exportXml(3)));
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ ok: true, records: 3, newSamples: 3, ingested: { steps: 3 } });
    expect(await s.rows('steps')).toEqual([1, 2, 3].map((d) => ({ date: `2026-03-0${d}`, count: 1000 })));
    expect(leftovers(s)).toEqual([]);
  });

  it('400 when it does not decompress, 413 when it decompresses past the limit: nothing stored', async () => {
    const s = await startIngestServer({
      cards: [['steps', 'step_count']],
      env: { KLEBB_APPLE_HEALTH_MAX_BYTES: '20000' },
    });
    srv = s;
    const whole = zlib.gzipSync(exportXml(10));
    const cut = await upload(s, whole.subarray(0, whole.length - 40));
    expect(cut.status, cut.text).toBe(400);
    expect(cut.body.code).toBe('BAD_CONTENT_ENCODING');
    expect(cut.body.error).toMatch(/gzip-compressed but does not decompress.*gunzip it/);

    const big = exportXml(200);
    expect(big.length).toBeGreaterThan(20000);
    const packed = zlib.gzipSync(big);
    expect(packed.length).toBeLessThan(20000);
    const tooBig = await upload(s, packed);
    expect(tooBig.status, tooBig.text).toBe(413);
    expect(tooBig.body.error).toMatch(/once decompressed/);

    expect(s.inst.hae.samples.count('step_count')).toBe(0);
    expect(await s.rows('steps')).toEqual([]);
    expect(leftovers(s)).toEqual([]);
  });
});
