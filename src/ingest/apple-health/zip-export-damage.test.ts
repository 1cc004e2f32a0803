/**
 * Damaged and cut archives never fail the upload with anything but a clear refusal: an export.zip
 * with bytes changed at random and cut at random places (headers, sizes, names, extra fields,
 * compressed data, the directory) is either read (what it holds up to the damage) or refused with
 * a KlebbError of status 4xx, never an unexpected error (a 500), and leaves no file behind.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type RawZipEntry, rawZip } from '../../../test/helpers/zip-bytes.js';
import { KlebbError } from '../../errors.js';
import { unzipExport } from './zip-export.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-zip-damage-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A small deterministic generator (mulberry32), so a failure can be run again. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const XML = `<?xml version="1.0"?>\n<HealthData locale="en_US">\n${' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" startDate="2026-03-01 09:00:00 +0100" endDate="2026-03-01 09:00:00 +0100" value="1000"/>\n'.repeat(40)}</HealthData>\n`;

const SHAPES: Partial<RawZipEntry>[] = [
  { descriptor: 'signed' },
  { descriptor: 'unsigned' },
  {},
  { zip64: true, descriptor: 'signed' },
  { zip64: true },
  { method: 0 },
];

describe('a damaged or cut export.zip', () => {
  it('is read or refused with a 4xx, never an unexpected error, and leaves no file', async () => {
    // every round of one sequence, and a stretch of another that once left a file behind
    const runs: [seed: number, from: number, to: number][] = [
      [20261206, 0, 400],
      [4242, 1920, 1960],
    ];
    for (const [seed, from, to] of runs) await damagedRounds(seed, from, to);
  });
});

/** Rounds `from` to `to` (not included) of the sequence drawn from `seed`, each checked. */
async function damagedRounds(seed: number, from: number, to: number): Promise<void> {
  const next = random(seed);
  for (let round = 0; round < to; round++) {
    const shape = SHAPES[round % SHAPES.length];
    const zip = rawZip([
      { name: 'apple_health_export/', ...(round % 2 ? { descriptor: 'signed' as const } : {}) },
      { name: 'apple_health_export/workout-routes/route.gpx', data: '<gpx/>'.repeat(50), ...shape },
      { name: 'apple_health_export/export.xml', data: XML, ...shape },
      { name: 'apple_health_export/export_cda.xml', data: '<ClinicalDocument/>', ...shape },
    ]);
    const bytes = Buffer.from(zip);
    const changes = 1 + Math.floor(next() * 4);
    for (let i = 0; i < changes; i++) bytes[Math.floor(next() * bytes.length)] = Math.floor(next() * 256);
    const cut = next() < 0.5 ? bytes.subarray(0, 4 + Math.floor(next() * (bytes.length - 4))) : bytes;
    // the upload is told a zip by its first four bytes
    Buffer.from([0x50, 0x4b, 0x03, 0x04]).copy(cut, 0);
    if (round < from) continue;
    const file = path.join(dir, `upload-${round}.zip`);
    const out = `${file}.unzipped`;
    fs.writeFileSync(file, cut);
    try {
      await unzipExport(file, out, 10_000_000);
    } catch (err) {
      const label = `round ${round} of ${seed}: ${(err as Error).stack}`;
      expect(err instanceof KlebbError, label).toBe(true);
      expect((err as KlebbError).status, label).toBeGreaterThanOrEqual(400);
      expect((err as KlebbError).status, label).toBeLessThan(500);
      expect(fs.existsSync(out), label).toBe(false);
    }
    fs.rmSync(out, { force: true });
    fs.rmSync(file);
    expect(fs.readdirSync(dir), `round ${round} of ${seed}`).toEqual([]);
  }
}
