/**
 * data-export-import: `npm run export` and `npm run import -- --apply` of a home of 200 cards x
 * 10 000 rows (2 million rows; 20 x 1 000 with --quick), each as its own process, and
 * `GET /api/export` from a running server. Reports seconds, MB/s (archive bytes, and the
 * unpacked bytes the inventory lists) and peak RSS of each process (VmHWM from /proc, sampled
 * every 50 ms). Goal: memory flat, under 200 MB whatever the size of the home.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import yauzl from 'yauzl';
import type { Benchmark } from './lib/bench.js';
import { cardsHome } from './lib/fixtures.js';
import { BENCH_TOKEN, repoRoot, startKlebb } from './lib/klebb.js';
import { spawnNode } from './lib/proc.js';
import { type Figure, progress } from './lib/report.js';
import { makeTempDir } from './lib/temp.js';

/** Peak RSS so far of a process, MiB (VmHWM), or 0 when it is gone. */
function peakRssMiB(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Runs a script of dist/scripts as a child; its wall time and peak RSS. */
async function runScript(
  args: string[],
  env: Record<string, string>,
  log: string,
): Promise<{ s: number; rssMiB: number }> {
  const t0 = performance.now();
  const child = spawnNode(args, { env: { KLEBB_LOG_LEVEL: 'silent', ...env }, logFile: log, cwd: repoRoot });
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, peakRssMiB(child.pid));
  }, 50);
  const code = await new Promise<number | null>((r) => child.proc.once('exit', (c) => r(c)));
  clearInterval(timer);
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}: ${child.logTail()}`);
  return { s: (performance.now() - t0) / 1000, rssMiB: peak };
}

/** Sum of the unpacked sizes of an archive's entries, bytes. */
function unpackedBytes(file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      let n = 0;
      zip.on('entry', (e: yauzl.Entry) => {
        n += e.uncompressedSize;
        zip.readEntry();
      });
      zip.on('end', () => {
        zip.close();
        resolve(n);
      });
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

export const dataExportImport: Benchmark = {
  name: 'data-export-import',
  title: 'Export and import of a home with 200 cards x 10 000 rows (20 x 1 000 with --quick)',
  async run(ctx) {
    const fx = await cardsHome(ctx);
    const dir = makeTempDir('data');
    const zip = path.join(dir, 'home.zip');
    progress('data-export-import: npm run export');
    const exp = await runScript(
      [path.join(repoRoot, 'dist/scripts/export.js'), '--out', zip, '--home', fx.home],
      {},
      path.join(dir, 'export.log'),
    );
    const zipMB = fs.statSync(zip).size / 1e6;
    const rawMB = (await unpackedBytes(zip)) / 1e6;
    progress('data-export-import: npm run import -- --apply');
    const target = path.join(dir, 'imported');
    const imp = await runScript(
      [path.join(repoRoot, 'dist/scripts/import.js'), zip, '--apply', '--target', target],
      { TMPDIR: dir },
      path.join(dir, 'import.log'),
    );
    progress('data-export-import: GET /api/export from a running server');
    const server = await startKlebb(fx.home, path.join(dir, 'server.log'));
    let http = { s: 0, rssMiB: 0, startMiB: 0 };
    try {
      const startMiB = peakRssMiB(server.child.pid);
      let peak = startMiB;
      const timer = setInterval(() => {
        peak = Math.max(peak, peakRssMiB(server.child.pid));
      }, 50);
      const t0 = performance.now();
      const res = await fetch(`${server.url}/api/export`, {
        headers: { authorization: `Bearer ${BENCH_TOKEN}` },
      });
      if (res.status !== 200) throw new Error(`GET /api/export answered ${res.status}`);
      let bytes = 0;
      for await (const c of res.body as unknown as AsyncIterable<Uint8Array>) bytes += c.length;
      clearInterval(timer);
      http = { s: (performance.now() - t0) / 1000, rssMiB: peak, startMiB };
      if (bytes < 1000) throw new Error('the export was empty');
    } finally {
      await server.stop();
    }
    const figures: Figure[] = [
      { key: 'export.s', label: 'npm run export: time', value: exp.s, unit: 's' },
      { key: 'export.mb_per_s', label: 'npm run export: unpacked MB/s', value: rawMB / exp.s, unit: 'MB/s' },
      {
        key: 'export.peak_rss_mib',
        label: 'npm run export: peak RSS',
        value: exp.rssMiB,
        unit: 'MiB',
        target: { op: '<', value: 200 },
      },
      {
        key: 'import.s',
        label: 'npm run import --apply (check, apply, verify): time',
        value: imp.s,
        unit: 's',
      },
      {
        key: 'import.mb_per_s',
        label: 'npm run import --apply: unpacked MB/s',
        value: rawMB / imp.s,
        unit: 'MB/s',
      },
      {
        key: 'import.peak_rss_mib',
        label: 'npm run import --apply: peak RSS',
        value: imp.rssMiB,
        unit: 'MiB',
        target: { op: '<', value: 200 },
      },
      { key: 'http.s', label: 'GET /api/export: time', value: http.s, unit: 's' },
      { key: 'http.mb_per_s', label: 'GET /api/export: archive MB/s', value: zipMB / http.s, unit: 'MB/s' },
      {
        key: 'http.server_peak_rss_mib',
        label: 'GET /api/export: server peak RSS',
        value: http.rssMiB,
        unit: 'MiB',
        target: { op: '<', value: 200 },
      },
      { key: 'archive.mb', label: 'archive size', value: zipMB, unit: 'MB' },
      { key: 'archive.unpacked_mb', label: 'unpacked size', value: rawMB, unit: 'MB' },
    ];
    const notes = [
      `${fx.cards} cards x ${fx.rowsPerCard.toLocaleString('en-US')} rows; each script in its own process; peak RSS is VmHWM sampled every 50 ms`,
      `server RSS before the export: ${http.startMiB.toFixed(0)} MiB`,
    ];
    fs.rmSync(dir, { recursive: true, force: true });
    return { figures, notes };
  },
};
