/**
 * Archives built to hurt are refused with a 422 naming the problem, and nothing is written: the
 * CLI's `--apply` into a fresh folder leaves no folder behind, and the staging folder is gone.
 * Each archive is made here, with yazl or by patching its bytes: path traversal, an absolute
 * name, a symbolic link, an encrypted entry, too many entries, a zip bomb's ratio, a total size
 * over the limit, no inventory, a wrong one, and a file that does not match its checksum.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as importMain } from '../../scripts/import.js';
import { checkAndStage } from '../../src/data/import-archive.js';
import { KlebbError } from '../../src/errors.js';
import { IMPORT_MAX_ENTRIES } from '../../src/limits.js';
import { buildZip } from '../helpers/zip.js';

let work: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-hostile-'));
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

// biome-ignore lint/suspicious/noExplicitAny: manifests the tests bend out of shape on purpose
type Loose = Record<string, any>;

type File = { name: string; data: Buffer | string; mode?: number; compress?: boolean };

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** The files of a small valid archive (one card with two rows), manifest last. */
function validFiles(extra: File[] = [], tweak: (m: Loose) => void = () => {}): File[] {
  const files: File[] = [
    {
      name: 'cards/bp.json',
      data: `${JSON.stringify({ $schema: 'klebb.datafile.v1', meta: { id: 'bp', label: 'BP' } })}\n`,
    },
    {
      name: 'cards/bp.rows.jsonl',
      data: '{"date":"2026-04-01","systolic":120}\n{"date":"2026-04-02","systolic":118}\n',
    },
    { name: 'samples/pushes.jsonl', data: '' },
    { name: 'samples/samples.jsonl', data: '' },
    { name: 'samples/metrics-seen.jsonl', data: '' },
    { name: 'conversations/conversations.jsonl', data: '' },
    { name: 'conversations/messages.jsonl', data: '' },
    ...extra,
  ];
  const m: Loose = {
    format: 'klebb.export.v1',
    formatVersion: 1,
    inventory: {
      cards: [{ id: 'bp', file: 'cards/bp.json', data: 'rows', dataFile: 'cards/bp.rows.jsonl', rows: 2 }],
      samples: { pushes: 0, samples: 0, metrics: 0 },
      conversations: { conversations: 0, messages: 0 },
      reports: [],
      meta: [],
      files: files.map((f) => ({
        file: f.name,
        bytes: Buffer.byteLength(f.data),
        sha256: sha(f.data),
        ...(f.name.endsWith('.jsonl') ? { rows: String(f.data).split('\n').length - 1 } : {}),
      })),
    },
  };
  tweak(m);
  return [...files, { name: 'klebb-export.json', data: JSON.stringify(m) }];
}

/** Replaces every occurrence of `from` by `to` (same length) in the archive's bytes. */
function patch(buf: Buffer, from: string, to: string): Buffer {
  expect(from.length).toBe(to.length);
  const out = Buffer.from(buf);
  let i = out.indexOf(from);
  expect(i).toBeGreaterThanOrEqual(0);
  while (i !== -1) {
    out.write(to, i, 'latin1');
    i = out.indexOf(from, i + 1);
  }
  return out;
}

/** Sets the "encrypted" flag of every entry, in the local and central headers. */
function markEncrypted(buf: Buffer): Buffer {
  const out = Buffer.from(buf);
  for (let i = 0; i < out.length - 4; i++) {
    const sig = out.readUInt32LE(i);
    if (sig === 0x04034b50) out.writeUInt16LE(out.readUInt16LE(i + 6) | 1, i + 6);
    if (sig === 0x02014b50) out.writeUInt16LE(out.readUInt16LE(i + 8) | 1, i + 8);
  }
  return out;
}

/** Runs the CLI's `--apply` into a fresh folder: exit 1, the code on stdout, no folder created. */
async function refusedByCli(zip: Buffer, code: string): Promise<void> {
  const file = path.join(work, `${code}-${Math.random().toString(36).slice(2)}.zip`);
  fs.writeFileSync(file, zip);
  const target = path.join(work, `target-${Math.random().toString(36).slice(2)}`);
  const out: string[] = [];
  const rc = await importMain([file, '--apply', '--target', target], {
    out: (x) => out.push(x),
    err: () => {},
  });
  expect(rc).toBe(1);
  expect(JSON.parse(out.join(''))).toMatchObject({ ok: false, code });
  expect(fs.existsSync(target)).toBe(false);
  expect(fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('klebb-import-'))).toEqual([]);
}

describe('hostile archives', () => {
  it('the valid archive the others are made from imports', async () => {
    const file = path.join(work, 'valid.zip');
    fs.writeFileSync(file, await buildZip(validFiles()));
    const target = path.join(work, 'valid-home');
    const rc = await importMain([file, '--apply', '--target', target], { out: () => {}, err: () => {} });
    expect(rc).toBe(0);
    expect(fs.existsSync(path.join(target, 'data', 'bp.json'))).toBe(true);
  });

  it('refuses path traversal', async () => {
    const zip = await buildZip(validFiles([{ name: 'xx/evil.txt', data: 'x' }]));
    await refusedByCli(patch(zip, 'xx/evil.txt', '../evil.txt'), 'ZIP_UNSAFE_NAME');
  });

  it('refuses an absolute name', async () => {
    const zip = await buildZip(validFiles([{ name: 'xetc/passwd', data: 'x' }]));
    await refusedByCli(patch(zip, 'xetc/passwd', '/etc/passwd'), 'ZIP_UNSAFE_NAME');
  });

  it('refuses a symbolic link', async () => {
    await refusedByCli(
      await buildZip(validFiles([{ name: 'reports/link.md', data: '/etc/passwd', mode: 0o120777 }])),
      'ZIP_SYMLINK',
    );
  });

  it('refuses encrypted entries', async () => {
    await refusedByCli(markEncrypted(await buildZip(validFiles())), 'ZIP_ENCRYPTED');
  });

  it('refuses too many entries', async () => {
    const many: File[] = Array.from({ length: IMPORT_MAX_ENTRIES }, (_, i) => ({
      name: `reports/r${i}.md`,
      data: '',
      compress: false,
    }));
    await refusedByCli(await buildZip(validFiles(many)), 'ZIP_TOO_MANY');
  });

  it('refuses a compression ratio over the limit (a zip bomb)', async () => {
    const bomb = Buffer.alloc(8 * 1024 * 1024);
    await refusedByCli(await buildZip(validFiles([{ name: 'reports/bomb.md', data: bomb }])), 'ZIP_RATIO');
  });

  it('refuses a total size over the limit, and removes its staging folder', async () => {
    const file = path.join(work, 'big.zip');
    fs.writeFileSync(file, await buildZip(validFiles([{ name: 'reports/big.md', data: 'y'.repeat(5000) }])));
    const stage = path.join(work, 'stage-big');
    const err = await checkAndStage(file, stage, { maxTotalBytes: 4000 }).catch((e) => e);
    expect(err).toBeInstanceOf(KlebbError);
    expect(err).toMatchObject({ status: 422, code: 'ZIP_TOO_LARGE' });
    expect(fs.existsSync(stage)).toBe(false);
  });

  it('refuses an archive without its inventory', async () => {
    await refusedByCli(await buildZip(validFiles().slice(0, -1)), 'IMPORT_NO_MANIFEST');
  });

  it('refuses a wrong inventory: another format, an unlisted file, a missing file', async () => {
    await refusedByCli(await buildZip(validFiles([], (m) => (m.format = 'other.v1'))), 'IMPORT_WRONG_FORMAT');
    await refusedByCli(await buildZip(validFiles([], (m) => (m.formatVersion = 2))), 'IMPORT_WRONG_VERSION');
    const unlisted = validFiles();
    unlisted.splice(2, 0, { name: 'reports/extra.md', data: 'x' });
    await refusedByCli(await buildZip(unlisted), 'IMPORT_INVENTORY_MISMATCH');
    await refusedByCli(
      await buildZip(validFiles().filter((f) => f.name !== 'cards/bp.rows.jsonl')),
      'IMPORT_INVENTORY_MISMATCH',
    );
    await refusedByCli(
      await buildZip(validFiles([], (m) => (m.inventory.cards = 'x'))),
      'IMPORT_BAD_MANIFEST',
    );
  });

  it('refuses a row holding a number JavaScript cannot keep, naming the line and the field', async () => {
    // 1e999 would be read back as null, 1e-400 as 0, a 17-digit integer rounded: a silent loss
    for (const [value, words] of [
      ['1e999', 'too large'],
      ['-1e999', 'too large'],
      ['1e-400', 'too small'],
      ['12345678901234567', 'rounded'],
    ]) {
      const rows = `{"date":"2026-04-01","systolic":120}\n{"date":"2026-04-02","systolic":${value}}\n`;
      const files = validFiles().map((f) => (f.name === 'cards/bp.rows.jsonl' ? { ...f, data: rows } : f));
      const m = JSON.parse(String(files.at(-1)?.data));
      const entry = m.inventory.files.find((f: { file: string }) => f.file === 'cards/bp.rows.jsonl');
      entry.bytes = Buffer.byteLength(rows);
      entry.sha256 = sha(rows);
      files[files.length - 1] = { name: 'klebb-export.json', data: JSON.stringify(m) };
      const file = path.join(work, `number-${value}.zip`);
      fs.writeFileSync(file, await buildZip(files));
      const out: string[] = [];
      const rc = await importMain([file, '--apply', '--target', path.join(work, `number-home-${value}`)], {
        out: (x) => out.push(x),
        err: () => {},
      });
      expect(rc, value).toBe(1);
      const answer = JSON.parse(out.join(''));
      expect(answer, value).toMatchObject({ ok: false, code: 'IMPORT_BAD_ROW' });
      expect(answer.error ?? answer.message, value).toMatch(/cards\/bp\.rows\.jsonl line 2: systolic is .*/);
      expect(answer.error ?? answer.message, value).toContain(words);
    }
  });

  it('refuses a file that does not match its checksum', async () => {
    const files = validFiles();
    const rows = files.find((f) => f.name === 'cards/bp.rows.jsonl');
    if (rows) rows.data = '{"date":"2026-04-01","systolic":999}\n{"date":"2026-04-02","systolic":118}\n';
    await refusedByCli(await buildZip(files), 'IMPORT_CHECKSUM');
  });

  it('refuses a manifest whose id is not its card', async () => {
    const files = validFiles();
    const card = `${JSON.stringify({ meta: { id: 'other', label: 'x' } })}\n`;
    const built = files.map((f) => (f.name === 'cards/bp.json' ? { ...f, data: card } : f));
    const m = JSON.parse(String(built.at(-1)?.data));
    const entry = m.inventory.files.find((f: { file: string }) => f.file === 'cards/bp.json');
    entry.bytes = Buffer.byteLength(card);
    entry.sha256 = sha(card);
    built[built.length - 1] = { name: 'klebb-export.json', data: JSON.stringify(m) };
    await refusedByCli(await buildZip(built), 'IMPORT_BAD_CARD');
  });
});
