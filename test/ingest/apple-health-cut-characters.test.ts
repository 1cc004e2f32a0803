/**
 * The Apple Health import decodes the file in pieces of a fixed number of bytes, so a character
 * of several bytes (the `’` of `Sam’s iPhone`, three bytes in UTF-8) regularly falls across two
 * pieces or two reads of the file. Such a character is read whole, never as replacement
 * characters: the stored source names are the names written in the file, wherever they sit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { importAppleHealthFile } from '../../src/ingest/apple-health/import-xml.js';
import { openInstance } from '../../src/instance.js';
import { sandboxHome } from '../helpers/sandbox-home.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-cut-characters-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const SOURCE = 'Sam’s iPhone';

function stamp(minute: number): string {
  const t = new Date(Date.UTC(2024, 0, 1) + minute * 60_000).toISOString();
  return `${t.slice(0, 10)} ${t.slice(11, 19)} +0000`;
}

/** Bytes of the smallest piece the import could decode: its boundaries are those of every larger one. */
const PIECE = 16 * 1024;

/**
 * An export of `records` step records, each naming SOURCE. Before the record that would come
 * close to the next multiple of PIECE bytes, a comment of the right length is written so that
 * its `’` starts one byte before that boundary: every boundary of a piece (of 16, 32, 64 ... KiB)
 * cuts a `’` after its first byte.
 */
function exportXml(records: number): Buffer {
  const parts: Buffer[] = [
    Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n <ExportDate value="2024-06-01 00:00:00 +0000"/>\n',
    ),
  ];
  let size = parts[0].length;
  let boundary = PIECE;
  for (let i = 0; i < records; i++) {
    const head = ` <Record type="HKQuantityTypeIdentifierStepCount" sourceName="${SOURCE.slice(0, 3)}`;
    const line = Buffer.from(
      `${head}${SOURCE.slice(3)}" unit="count" creationDate="${stamp(i)}" startDate="${stamp(i)}" endDate="${stamp(i)}" value="${(i % 50) + 1}"/>\n`,
    );
    const quoteAt = size + Buffer.byteLength(head);
    if (quoteAt + 2 * line.length >= boundary) {
      // a comment line filling the bytes up to one before the boundary
      const fill = boundary - 1 - quoteAt;
      const comment = Buffer.from(`<!--${'x'.repeat(fill - 8)}-->\n`);
      parts.push(comment);
      size += comment.length;
      boundary += PIECE;
    }
    parts.push(line);
    size += line.length;
  }
  parts.push(Buffer.from('</HealthData>\n'));
  return Buffer.concat(parts);
}

describe('characters cut between the pieces the import decodes', () => {
  it('are read whole: every stored source is the name written in the file', async () => {
    const file = path.join(dir, 'export.xml');
    const records = 6000;
    fs.writeFileSync(file, exportXml(records));
    const bytes = fs.readFileSync(file);
    // several reads of 256 KiB long, and every piece boundary falls inside a character
    expect(bytes.length).toBeGreaterThan(600 * 1024);
    for (let b = PIECE; b < bytes.length; b += PIECE) expect(bytes[b] & 0xc0).toBe(0x80);
    const box = sandboxHome();
    try {
      const inst = await openInstance(loadConfig({ HEALTH_HOME: box.home, KLEBB_LOG_LEVEL: 'silent' }), {
        watch: false,
      });
      try {
        const r = await importAppleHealthFile(inst.hae, file);
        expect(r.records).toBe(records);
        expect(r.xmlErrors).toBe(0);
        const sources = inst.db
          .prepare('SELECT source, count(*) AS n FROM hae_samples GROUP BY source')
          .all() as { source: string; n: number }[];
        expect(sources).toEqual([{ source: SOURCE, n: records }]);
      } finally {
        await inst.close();
      }
    } finally {
      box.remove();
    }
  }, 120_000);
});
