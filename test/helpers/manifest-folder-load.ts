/**
 * A folder of manifests dropped into a fresh data folder before the first start, as a suite both
 * the card templates (templates/, in `npm test`) and the real-world examples (the cases suite) run:
 * - each file is a card and nothing is an error;
 * - a file carrying `data` is imported: its rows are served exactly, the file is rewritten
 *   meta-only and a byte-exact backup `<name>.<stamp>.json` sits beside it;
 * - backups are never cards nor errors;
 * - a restart on the same home imports nothing a second time;
 * - a file dropped in while the server runs appears within 1 s, with its data (the folder's
 *   `weight` card, copied under other ids).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './server.js';

interface Example {
  name: string;
  bytes: Buffer;
  parsed: Record<string, unknown> & { meta: { id: string } };
  hasData: boolean;
}

function readExamples(examplesDir: string): Example[] {
  const names = fs
    .readdirSync(examplesDir)
    .filter((n) => fs.statSync(path.join(examplesDir, n)).isFile())
    .sort();
  return names.map((name) => {
    const bytes = fs.readFileSync(path.join(examplesDir, name));
    const parsed = JSON.parse(bytes.toString('utf8'));
    return { name, bytes, parsed, hasData: Object.hasOwn(parsed, 'data') };
  });
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `<name>.<UTC stamp>.json`, the stamp as written by the loader (e.g. 20260420T101500Z). */
const backupRe = (name: string) => new RegExp(`^${escapeRe(name)}\\.\\d{8}T\\d{6}Z\\.json$`);

/**
 * Registers the suite for the manifests in `examplesDir` (every regular file in it; one must be
 * the card `weight`); `label` names the folder in the test names.
 */
export function manifestFolderLoadSuite(examplesDir: string, label: string): void {
  const examples = readExamples(examplesDir);

  describe(`manifests of ${label}`, () => {
    let s: TestServer;
    let home: string;
    /** Snapshot of the data folder after the first start: file name → bytes. */
    let afterFirstStart: Map<string, Buffer>;
    let versionsAfterFirstStart: Map<string, number>;

    beforeAll(async () => {
      expect(examples.length, `no manifest files found in ${examplesDir}`).toBeGreaterThan(0);
      s = await startServer({
        before: (_home, dataDir) => {
          fs.mkdirSync(dataDir, { recursive: true });
          for (const ex of examples) fs.writeFileSync(path.join(dataDir, ex.name), ex.bytes);
        },
      });
      home = s.home;
    });

    afterAll(async () => {
      await s?.close();
    });

    it('lists a card for every file (and nothing else) with no errors', async () => {
      const r = await s.api('/api/manifests');
      expect(r.status).toBe(200);
      expect(r.body.errors).toEqual([]);
      const byFile = new Map<string, { id: string }>(
        r.body.entries.map((e: { file: string; id: string }) => [e.file, e]),
      );
      for (const ex of examples) {
        const entry = byFile.get(`data/${ex.name}`);
        expect(entry, `no card for ${ex.name}`).toBeDefined();
        expect(entry?.id).toBe(ex.parsed.meta.id);
      }
      expect([...byFile.keys()].sort()).toEqual(examples.map((ex) => `data/${ex.name}`).sort());
      versionsAfterFirstStart = new Map(
        r.body.entries.map((e: { id: string; version: number }) => [e.id, e.version]),
      );
    });

    it.each(examples.filter((ex) => ex.hasData).map((ex) => [ex.name, ex] as const))(
      '%s: data served exactly, file rewritten meta-only, byte-exact backup beside it',
      async (_name, ex) => {
        const d = await s.api(`/api/manifests/${ex.parsed.meta.id}/data`);
        expect(d.status).toBe(200);
        expect(d.body).toEqual({ data: ex.parsed.data });

        const onDisk = JSON.parse(fs.readFileSync(path.join(s.dataDir, ex.name), 'utf8'));
        expect(onDisk).not.toHaveProperty('data');
        const { data: _data, ...withoutData } = ex.parsed;
        expect(onDisk).toEqual(withoutData);

        const backups = fs.readdirSync(s.dataDir).filter((n) => backupRe(ex.name).test(n));
        expect(backups, `backups of ${ex.name}`).toHaveLength(1);
        expect(
          fs.readFileSync(path.join(s.dataDir, backups[0])).equals(ex.bytes),
          `${backups[0]} holds the original bytes`,
        ).toBe(true);
      },
    );

    it('never lists a backup as a card or an error', async () => {
      const names = fs.readdirSync(s.dataDir);
      const backups = names.filter((n) => examples.some((ex) => backupRe(ex.name).test(n)));
      expect(backups).toHaveLength(examples.filter((ex) => ex.hasData).length);
      const r = await s.api('/api/manifests');
      const listed = [
        ...r.body.entries.map((e: { file: string }) => e.file),
        ...r.body.errors.map((e: { file: string }) => `data/${e.file}`),
      ];
      for (const b of backups) expect(listed).not.toContain(`data/${b}`);
      // and nothing but the manifests and their backups sits in the folder (no leftover temp files)
      const expected = new Set([...examples.map((ex) => ex.name), ...backups]);
      expect(
        names.filter((n) => !expected.has(n) && !fs.statSync(path.join(s.dataDir, n)).isDirectory()),
      ).toEqual([]);
      afterFirstStart = new Map(
        names
          .filter((n) => fs.statSync(path.join(s.dataDir, n)).isFile())
          .map((n) => [n, fs.readFileSync(path.join(s.dataDir, n))]),
      );
    });

    it('a restart on the same home imports nothing twice and serves the same data', async () => {
      expect(afterFirstStart, 'the previous test snapshots the data folder').toBeDefined();
      await s.close({ keepHome: true });
      s = await startServer({ home });

      const r = await s.api('/api/manifests');
      expect(r.body.errors).toEqual([]);
      expect(r.body.entries.map((e: { file: string }) => e.file).sort()).toEqual(
        examples.map((ex) => `data/${ex.name}`).sort(),
      );
      // no data version moved: nothing was re-imported
      expect(new Map(r.body.entries.map((e: { id: string; version: number }) => [e.id, e.version]))).toEqual(
        versionsAfterFirstStart,
      );

      // the data folder is byte-for-byte what it was: no new backup, no rewritten file
      const now = fs.readdirSync(s.dataDir).filter((n) => fs.statSync(path.join(s.dataDir, n)).isFile());
      expect(now.sort()).toEqual([...afterFirstStart.keys()].sort());
      for (const n of now)
        expect(fs.readFileSync(path.join(s.dataDir, n)).equals(afterFirstStart.get(n) as Buffer), n).toBe(
          true,
        );

      // exactly one import change set per imported card
      const imports = s.inst.db
        .prepare(
          `SELECT card_id AS id, count(*) AS n FROM changes WHERE op = 'import' GROUP BY card_id ORDER BY card_id`,
        )
        .all() as { id: string; n: number }[];
      expect(imports).toEqual(
        examples
          .filter((ex) => ex.hasData)
          .map((ex) => ({ id: ex.parsed.meta.id, n: 1 }))
          .sort((a, b) => a.id.localeCompare(b.id)),
      );

      for (const ex of examples.filter((e) => e.hasData)) {
        const d = await s.api(`/api/manifests/${ex.parsed.meta.id}/data`);
        expect(d.body, ex.name).toEqual({ data: ex.parsed.data });
      }
    });
  });

  describe('a manifest dropped into data/ while the server runs', () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startServer();
    });
    afterAll(async () => {
      await s?.close();
    });

    /** Polls `GET /api/manifests` until `id` is listed; fails if it is not there 1 s after the write. */
    async function appearsWithin1s(id: string, writtenAt: number): Promise<void> {
      for (;;) {
        const r = await s.api('/api/manifests');
        if (r.body.entries.some((e: { id: string }) => e.id === id)) return;
        if (Date.now() - writtenAt > 1000) {
          throw new Error(
            `card "${id}" not listed 1 s after its file was written; errors: ${JSON.stringify(r.body.errors)}`,
          );
        }
        await new Promise((res) => setTimeout(res, 20));
      }
    }

    it('appears within 1 s: a meta-only file', async () => {
      const weight = examples.find((ex) => ex.parsed.meta.id === 'weight');
      expect(weight, 'a weight card').toBeDefined();
      const { data: _d, ...metaOnly } = (weight as Example).parsed;
      const manifest = {
        ...metaOnly,
        meta: { ...(weight as Example).parsed.meta, id: 'dropped-plain', label: 'Dropped plain' },
      };
      fs.writeFileSync(path.join(s.dataDir, 'dropped-plain.json'), JSON.stringify(manifest, null, 2));
      await appearsWithin1s('dropped-plain', Date.now());
      const r = await s.api('/api/manifests');
      expect(r.body.errors).toEqual([]);
    });

    it('appears within 1 s: a file carrying data, imported with a backup', async () => {
      const weight = examples.find((ex) => ex.parsed.meta.id === 'weight') as Example;
      const rows = [
        { date: '2026-04-19', kg: 85.1 },
        { date: '2026-04-20', kg: 85.5, note: 'after run' },
      ];
      const manifest = {
        ...weight.parsed,
        meta: { ...weight.parsed.meta, id: 'dropped-data', label: 'Dropped data' },
        data: rows,
      };
      const text = JSON.stringify(manifest, null, 2);
      fs.writeFileSync(path.join(s.dataDir, 'dropped-data.json'), text);
      await appearsWithin1s('dropped-data', Date.now());

      const d = await s.api('/api/manifests/dropped-data/data');
      expect(d.body).toEqual({ data: rows });
      const onDisk = JSON.parse(fs.readFileSync(path.join(s.dataDir, 'dropped-data.json'), 'utf8'));
      expect(onDisk).not.toHaveProperty('data');
      const backups = fs.readdirSync(s.dataDir).filter((n) => backupRe('dropped-data.json').test(n));
      expect(backups).toHaveLength(1);
      expect(fs.readFileSync(path.join(s.dataDir, backups[0]), 'utf8')).toBe(text);

      const r = await s.api('/api/manifests');
      expect(r.body.errors).toEqual([]);
      expect(r.body.entries.map((e: { file: string }) => e.file)).not.toContain(`data/${backups[0]}`);
    });
  });
}
