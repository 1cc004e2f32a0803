/**
 * apple-health-import: uploading a real-sized Apple Health `export.xml` to a running server.
 *
 * For each size (30 MB and 300 MB; 3 MB with --quick; 1 GB too when BENCH_APPLE_1GB=1, as it
 * takes several minutes; BENCH_APPLE_SIZES=30mb,300mb picks some of them) an export is generated from a realistic sample (bench/lib/apple-export.ts:
 * about 2.8 million records per GB), then in the same run:
 * - the floors: the bare saxes parse of the file and `xmllint --stream` (bench/lib/parse-floor.ts),
 *   in child processes, wall and CPU time;
 * - the import: a fresh server with cards subscribed to steps, heart rate, sleep, energy and
 *   workouts; the file streamed to `POST /api/apple-health/import`; time to the answer (upload
 *   included), the server's CPU time (/proc), its peak memory (VmHWM) and VmRSS sampled every
 *   100 ms (the import's own peak: the highest sample minus VmRSS just before the upload);
 * - the server answering meanwhile: `GET /healthz` one after another (a fresh request every
 *   50 ms) during the import, p50/p99/max latency, beside the same measured idle before it;
 * - progress: `GET /api/apple-health/import/progress` read every second (how many readings showed
 *   a percent and a time left).
 * Ratios to the floors are server CPU / floor CPU (stable when other work shares the machine) and
 * wall / floor wall. Free disk space is checked first (the file, its upload copy and the database
 * need about three times its size); a size that does not fit is skipped with a note. Files are
 * deleted after each size.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeAppleExport } from './lib/apple-export.js';
import type { Benchmark } from './lib/bench.js';
import { expectStatus } from './lib/http.js';
import { BENCH_TOKEN, type KlebbServer, startKlebb } from './lib/klebb.js';
import { type FloorTime, saxesFloor, xmllintFloor } from './lib/parse-floor.js';
import { procStatusMB } from './lib/proc.js';
import { type Figure, progress } from './lib/report.js';
import { summarize } from './lib/stats.js';
import { makeTempDir, removeTempDir } from './lib/temp.js';

const CARDS: [string, string][] = [
  ['steps', 'step_count'],
  ['heart', 'heart_rate'],
  ['sleep', 'sleep_analysis'],
  ['energy', 'active_energy'],
  ['workouts', 'workouts'],
];

function cardManifest(id: string, metric: string): Record<string, unknown> {
  return {
    $schema: 'klebb.datafile.v1',
    meta: { id, label: id, ingest: { source: 'hae', metric }, writeable: { fromWebapp: false } },
    description: `${metric} from Apple Health`,
  };
}

/** CPU time (user + system) the process has used, ms, from /proc/<pid>/stat (10 ms ticks). */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Streams `file` to the import route; resolves with the status, answer and ms to the last byte. */
function upload(
  url: string,
  file: string,
): Promise<{ status: number; ms: number; answer: Record<string, unknown> }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: '/api/apple-health/import',
        method: 'POST',
        headers: {
          authorization: `Bearer ${BENCH_TOKEN}`,
          'content-type': 'application/xml',
          'content-length': fs.statSync(file).size,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0, answer: JSON.parse(text) });
          } catch {
            reject(new Error(`answer is not JSON (${res.statusCode}): ${text.slice(0, 200)}`));
          }
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(3_600_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    fs.createReadStream(file).pipe(req);
  });
}

/** One GET on a fresh connection; ms to the last byte. */
function timedGet(url: string): Promise<{ ms: number; body: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    http
      .get(url, { agent: false, headers: { authorization: `Bearer ${BENCH_TOKEN}` } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => resolve({ ms: performance.now() - t0, body }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** GET /healthz one after another, 50 ms apart, until `stop()`; the latencies, ms. */
function pollHealthz(url: string): { stop: () => Promise<number[]> } {
  const out: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t = await timedGet(`${url}/healthz`);
      out.push(t.ms);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return out;
    },
  };
}

/** Reads the progress route every second until `stop()`; how many readings showed a percent and a time left. */
function pollProgress(url: string): {
  stop: () => Promise<{ readings: number; withEta: number; lastPercent: number }>;
} {
  let running = true;
  let readings = 0;
  let withEta = 0;
  let lastPercent = 0;
  const loop = (async () => {
    while (running) {
      await new Promise((r) => setTimeout(r, 1000));
      const t = await timedGet(`${url}/api/apple-health/import/progress`);
      const p = JSON.parse(t.body) as { running: boolean; percent?: number; etaSeconds?: number | null };
      if (p.running) {
        readings++;
        if (typeof p.etaSeconds === 'number') withEta++;
        lastPercent = p.percent ?? lastPercent;
      }
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { readings, withEta, lastPercent };
    },
  };
}

async function serverWithCards(dir: string, name: string): Promise<KlebbServer> {
  const home = path.join(dir, name);
  fs.mkdirSync(home);
  const server = await startKlebb(home, path.join(dir, `${name}.log`));
  for (const [id, metric] of CARDS) {
    expectStatus(
      await server.client.request('/api/manifests', { json: cardManifest(id, metric), token: BENCH_TOKEN }),
      201,
      `create card ${id}`,
    );
  }
  return server;
}

/** One size: floors, then the import with its latency and memory figures. */
async function runSize(label: string, bytes: number): Promise<{ figures: Figure[]; notes: string[] }> {
  const dir = makeTempDir(`apple-${label}`);
  try {
    const free = fs.statfsSync(dir);
    const freeBytes = free.bavail * free.bsize;
    if (freeBytes < bytes * 3.2) {
      return {
        figures: [],
        notes: [
          `${label}: skipped, ${(freeBytes / 1e9).toFixed(1)} GB free where ~${((bytes * 3.2) / 1e9).toFixed(1)} GB are needed`,
        ],
      };
    }
    const file = path.join(dir, 'export.xml');
    const gen = writeAppleExport(file, bytes);
    const mb = gen.bytes / 1e6;
    progress(`${label}: generated ${mb.toFixed(0)} MB, ${gen.records} records over ${gen.days} days`);
    const sax: FloorTime = saxesFloor(file);
    const lint = xmllintFloor(file);
    progress(
      `${label}: saxes floor ${(sax.wallMs / 1000).toFixed(1)} s (CPU ${(sax.cpuMs / 1000).toFixed(1)} s)` +
        (lint
          ? `, xmllint --stream ${(lint.wallMs / 1000).toFixed(1)} s (CPU ${(lint.cpuMs / 1000).toFixed(1)} s)`
          : ''),
    );

    const server = await serverWithCards(dir, 'home');
    let figures: Figure[];
    try {
      const pid = server.child.pid;
      const idle = pollHealthz(server.url);
      await new Promise((r) => setTimeout(r, 3000));
      const idleMs = summarize(await idle.stop());
      const hwmBefore = procStatusMB(pid, 'VmHWM');
      const rssBefore = procStatusMB(pid, 'VmRSS');
      let rssMax = 0;
      const timer = setInterval(() => {
        try {
          rssMax = Math.max(rssMax, procStatusMB(pid, 'VmRSS'));
        } catch {
          // the server is gone: the upload fails and says so
        }
      }, 100);
      const c0 = cpuMs(pid);
      const busy = pollHealthz(server.url);
      const prog = pollProgress(server.url);
      let r: Awaited<ReturnType<typeof upload>>;
      try {
        r = await upload(server.url, file);
      } finally {
        clearInterval(timer);
      }
      const cpu = cpuMs(pid) - c0;
      const during = summarize(await busy.stop());
      const p = await prog.stop();
      if (r.status !== 200 || r.answer.ok !== true)
        throw new Error(`${label}: import answered ${r.status} ${JSON.stringify(r.answer).slice(0, 300)}`);
      const hwm = procStatusMB(pid, 'VmHWM');
      const samples = r.answer.samples as number;
      const s = r.ms / 1000;
      progress(
        `${label}: imported in ${s.toFixed(1)} s (server CPU ${(cpu / 1000).toFixed(1)} s), ${samples} samples, VmHWM ${hwm.toFixed(0)} MB, /healthz p99 ${during.p99.toFixed(0)} ms`,
      );
      const k = `apple.${label}`;
      figures = [
        { key: `${k}.mb`, label: `${label}: file size`, value: mb, unit: 'MB' },
        {
          key: `${k}.records`,
          label: `${label}: records read`,
          value: r.answer.records as number,
          unit: 'records',
        },
        { key: `${k}.s`, label: `${label}: upload + import, to the answer`, value: s, unit: 's' },
        { key: `${k}.cpu_s`, label: `${label}: server CPU time`, value: cpu / 1000, unit: 's' },
        { key: `${k}.mb_per_s`, label: `${label}: MB/s (wall)`, value: mb / s, unit: 'MB/s' },
        {
          key: `${k}.rows_per_s`,
          label: `${label}: samples stored per s (wall)`,
          value: samples / s,
          unit: 'rows/s',
        },
        {
          key: `${k}.saxes_s`,
          label: `${label}: floor, bare saxes parse (wall)`,
          value: sax.wallMs / 1000,
          unit: 's',
        },
        {
          key: `${k}.saxes_cpu_s`,
          label: `${label}: floor, bare saxes parse (CPU)`,
          value: sax.cpuMs / 1000,
          unit: 's',
        },
        {
          key: `${k}.ratio_saxes_cpu`,
          label: `${label}: server CPU / saxes CPU`,
          value: cpu / sax.cpuMs,
          unit: 'x',
          target: { op: '<=', value: 3 },
        },
        {
          key: `${k}.ratio_saxes_wall`,
          label: `${label}: wall / saxes wall`,
          value: r.ms / sax.wallMs,
          unit: 'x',
        },
        ...(lint
          ? [
              {
                key: `${k}.xmllint_s`,
                label: `${label}: xmllint --stream (wall; CPU ${(lint.cpuMs / 1000).toFixed(1)} s)`,
                value: lint.wallMs / 1000,
                unit: 's',
              },
              {
                key: `${k}.ratio_xmllint_cpu`,
                label: `${label}: server CPU / xmllint CPU`,
                value: cpu / lint.cpuMs,
                unit: 'x',
              },
            ]
          : []),
        {
          key: `${k}.hwm_before_mb`,
          label: `${label}: server VmHWM before the upload`,
          value: hwmBefore,
          unit: 'MB',
        },
        {
          key: `${k}.hwm_mb`,
          label: `${label}: server VmHWM (peak RSS) after`,
          value: hwm,
          unit: 'MB',
          target: { op: '<=', value: 150 },
        },
        {
          key: `${k}.rss_max_mb`,
          label: `${label}: server VmRSS, highest sample`,
          value: rssMax,
          unit: 'MB',
        },
        {
          key: `${k}.rss_before_mb`,
          label: `${label}: server VmRSS just before the upload`,
          value: rssBefore,
          unit: 'MB',
        },
        {
          key: `${k}.import_rss_mb`,
          label: `${label}: the import's own peak (VmRSS highest sample minus just before)`,
          value: rssMax - rssBefore,
          unit: 'MB',
        },
        {
          key: `${k}.healthz_idle_p99_ms`,
          label: `${label}: GET /healthz p99, idle (${idleMs.n})`,
          value: idleMs.p99,
          unit: 'ms',
        },
        {
          key: `${k}.healthz_p50_ms`,
          label: `${label}: GET /healthz p50 during the import`,
          value: during.median,
          unit: 'ms',
        },
        {
          key: `${k}.healthz_p99_ms`,
          label: `${label}: GET /healthz p99 during the import (${during.n})`,
          value: during.p99,
          unit: 'ms',
        },
        {
          key: `${k}.healthz_max_ms`,
          label: `${label}: GET /healthz max during the import`,
          value: during.max,
          unit: 'ms',
        },
        {
          key: `${k}.progress_eta_readings`,
          label: `${label}: progress readings with a time left (of ${p.readings} while running)`,
          value: p.withEta,
          unit: 'readings',
        },
      ];
    } finally {
      await server.stop();
    }
    return { figures, notes: [] };
  } finally {
    removeTempDir(dir);
  }
}

export const appleHealthImport: Benchmark = {
  name: 'apple-health-import',
  title:
    'Apple Health export.xml upload: 30 MB and 300 MB (1 GB with BENCH_APPLE_1GB=1), floors in the same run',
  async run(ctx) {
    // BENCH_APPLE_SIZES=30mb (comma-separated labels): only those sizes
    const onlySizes = process.env.BENCH_APPLE_SIZES?.split(',').map((l) => l.trim());
    const sizes: [string, number][] = ctx.quick
      ? [['3mb', 3e6]]
      : (
          [
            ['30mb', 30e6],
            ['300mb', 300e6],
            ...(process.env.BENCH_APPLE_1GB === '1' ? ([['1gb', 1e9]] as [string, number][]) : []),
          ] as [string, number][]
        ).filter(([label]) => onlySizes === undefined || onlySizes.includes(label));
    const figures: Figure[] = [];
    const notes: string[] = [
      'generated export (bench/lib/apple-export.ts): one person with an iPhone and a Watch, records grouped by type as Apple writes them',
      'CPU times from /proc (server) and bash `times` (floors); MB = 10^6 bytes; wall times stretch when other work shares the CPUs, CPU ratios much less',
      'GET /healthz: a new connection per request, one every 50 ms, while the upload and the import run',
    ];
    for (const [label, bytes] of sizes) {
      const r = await runSize(label, bytes);
      figures.push(...r.figures);
      notes.push(...r.notes);
    }
    return { figures, notes };
  },
};
