/**
 * hae-ingest: Health Auto Export webhook speed and memory.
 *
 * 1. The real 1.6 MB payload (hevy-metal file: 22 months of daily aggregates, 11 104 points) posted
 *    to a fresh server (`node dist/server/main.js`, production log level) with cards subscribed to
 *    steps, sleep, weight, heart rate and workouts; then the same bytes posted again (RESENDS
 *    times, their CPU time summed: one re-send is about one 10 ms tick of /proc); then the same
 *    payload with every date four years later (all new samples and rows: a first ingest in a
 *    process whose code is already warm, as a running server's next push is). Time is from just
 *    before sending to the last byte of the answer, over one keep-alive connection; the server's
 *    CPU time (/proc) is reported beside it. Five fresh homes; medians reported. Targets: first
 *    post < 500 ms; re-send < a third of that. The floor, measured in this process in the same
 *    run: JSON.parse of the body plus one durable transaction (WAL, synchronous=FULL) writing one
 *    row per point into a table indexed like the samples; the server's CPU time of each post is
 *    reported as a ratio to the floor's CPU time (targets: new samples ≤ 2x, a re-send ≤ 1x).
 * 2. A generated payload of 100 MB (10 MB with --quick), shaped like the real minute-level export
 *    (bench/lib/hae-payload.ts), streamed from disk to a fresh server with the same cards. The
 *    server's peak resident memory is read from /proc/<pid>/status (VmHWM) after the answer
 *    (and VmRSS sampled every 50 ms meanwhile). Target: VmHWM < 300 MB.
 * 3. A 21.8 MB minute-level push, as a person's phone sent it (73 days of heart rate and steps
 *    every minute, 210 240 points; bench/lib/hae-payload.ts writeMinutePush), to a fresh server
 *    with the cards: the server's CPU time, the time to the answer, samples stored per second of
 *    CPU, and the latency of /healthz asked again and again meanwhile (each 20 ms after the last
 *    answer, on its own connection): p99 and max. Target: /healthz p99 < 100 ms (the push must
 *    not hold the server). Floor: the same JSON.parse + one durable transaction on this body.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import type { Benchmark } from './lib/bench.js';
import { casePath } from './lib/cases-dir.js';
import { writeHaePayload, writeMinutePush } from './lib/hae-payload.js';
import { expectStatus } from './lib/http.js';
import { BENCH_TOKEN, type KlebbServer, startKlebb } from './lib/klebb.js';
import { procStatusMB } from './lib/proc.js';
import { type Figure, progress } from './lib/report.js';
import { summarize } from './lib/stats.js';
import { makeTempDir } from './lib/temp.js';

/** Re-sends per fresh home; their server CPU time is summed and divided (one costs about a 10 ms tick). */
const RESENDS = 10;

const REAL_FILE = casePath('real-data', 'hae', 'hevy-metal_HealthAutoExport-2023-06-17-2025-04-26.json');

const CARDS: [string, string][] = [
  ['steps', 'step_count'],
  ['sleep', 'sleep_analysis'],
  ['weight', 'weight_body_mass'],
  ['heart', 'heart_rate'],
  ['workouts', 'workouts'],
];

function cardManifest(id: string, metric: string): Record<string, unknown> {
  return {
    $schema: 'klebb.datafile.v1',
    meta: { id, label: id, ingest: { source: 'hae', metric }, writeable: { fromWebapp: false } },
    description: `${metric} from Health Auto Export`,
  };
}

/**
 * CPU time the process has used so far (user + system), ms, from /proc/<pid>/stat (clock ticks
 * of 10 ms): unlike wall time it hardly moves when other work competes for the CPUs.
 */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * The floor of one push, CPU ms: JSON.parse of `body` and one durable transaction (WAL,
 * synchronous=FULL, like the instance's database) inserting one row per point into a table with
 * the samples' unique (metric, date, key) index. Median of `runs`, each on a fresh database.
 */
function pushFloorCpuMs(dir: string, body: Buffer, runs: number): number {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const file = path.join(dir, `floor-${i}.sqlite`);
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec(
      'CREATE TABLE s (id INTEGER PRIMARY KEY, k TEXT NOT NULL, metric TEXT NOT NULL, date TEXT NOT NULL, vals TEXT NOT NULL); CREATE UNIQUE INDEX s_k ON s (metric, date, k)',
    );
    const insert = db.prepare(
      'INSERT INTO s (k, metric, date, vals) VALUES (?,?,?,?) ON CONFLICT DO NOTHING',
    );
    const c0 = process.cpuUsage();
    const parsed = JSON.parse(body.toString('utf8')) as {
      data: { metrics: { name: string; data: { date?: unknown }[] }[] };
    };
    db.transaction(() => {
      for (const m of parsed.data.metrics) {
        for (const p of m.data) {
          const date = String(p.date);
          insert.run(date, m.name, date.slice(0, 10), '{}');
        }
      }
    }).immediate();
    const c = process.cpuUsage(c0);
    out.push((c.user + c.system) / 1000);
    db.close();
  }
  return summarize(out).median;
}

/** A fresh home and server with an HAE token and the five cards. */
async function serverWithCards(
  dir: string,
  name: string,
): Promise<{ server: KlebbServer; haeToken: string }> {
  const home = path.join(dir, name);
  fs.mkdirSync(home);
  const server = await startKlebb(home, path.join(dir, `${name}.log`));
  const t = expectStatus(
    await server.client.request('/api/health-auto-export/token', { method: 'POST', token: BENCH_TOKEN }),
    201,
    'POST /api/health-auto-export/token',
  );
  for (const [id, metric] of CARDS) {
    expectStatus(
      await server.client.request('/api/manifests', { json: cardManifest(id, metric), token: BENCH_TOKEN }),
      201,
      `create card ${id}`,
    );
  }
  return { server, haeToken: (JSON.parse(t.body) as { token: string }).token };
}

/** POSTs `body` (bytes, or a file streamed from disk) to the webhook; ms to the last byte of the answer. */
function post(
  url: string,
  token: string,
  body: Buffer | { file: string },
  agent: http.Agent,
): Promise<{ status: number; ms: number; answer: Record<string, unknown> }> {
  const u = new URL(url);
  const size = Buffer.isBuffer(body) ? body.length : fs.statSync(body.file).size;
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: '/api/health-auto-export',
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': size,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const ms = performance.now() - t0;
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, ms, answer: JSON.parse(text) });
          } catch {
            reject(new Error(`answer is not JSON (${res.statusCode}): ${text.slice(0, 200)}`));
          }
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(900_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    if (Buffer.isBuffer(body)) req.end(body);
    else fs.createReadStream(body.file).pipe(req);
  });
}

/** Days of the minute-level push (section 3): what the phone sent in one go. */
const MINUTE_PUSH_DAYS = 73;

/** GET /healthz again and again (20 ms after each answer) until `done()`; the latencies, ms. */
async function pollHealth(url: string, done: () => boolean): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const out: number[] = [];
  try {
    while (!done()) {
      const t0 = performance.now();
      await new Promise<void>((resolve, reject) => {
        http
          .get(`${url}/healthz`, { agent }, (res) => {
            res.resume();
            res.on('end', () => resolve());
            res.on('error', reject);
          })
          .on('error', reject);
      });
      out.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    agent.destroy();
  }
  return out;
}

/** The 21.8 MB minute-level push to a fresh server (section 3), with /healthz asked meanwhile. */
async function minutePush(dir: string): Promise<{ figures: Figure[]; note: string }> {
  const file = path.join(dir, 'minute-push.json');
  const gen = await writeMinutePush(file, MINUTE_PUSH_DAYS);
  // its own folder: the floor's database files are named by run number
  const floorDir = path.join(dir, 'minute-floor');
  fs.mkdirSync(floorDir);
  const floor = pushFloorCpuMs(floorDir, fs.readFileSync(file), 1);
  const { server, haeToken } = await serverWithCards(dir, 'minute');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let done = false;
  try {
    const c0 = cpuMs(server.child.pid);
    const polling = pollHealth(server.url, () => done);
    const r = await post(server.url, haeToken, { file }, agent).finally(() => {
      done = true;
    });
    const cpu = cpuMs(server.child.pid) - c0;
    const health = await polling;
    if (r.status !== 200 || r.answer.ok !== true)
      throw new Error(`minute push: ${r.status} ${JSON.stringify(r.answer).slice(0, 300)}`);
    const samples = (r.answer.samples as { received: number }).received;
    const h = summarize(health);
    const p99 = h.p99;
    progress(
      `minute push ${(gen.bytes / 1e6).toFixed(1)} MB: ${(r.ms / 1000).toFixed(1)} s, server CPU ${cpu} ms, /healthz p99 ${p99.toFixed(0)} ms (max ${h.max.toFixed(0)}, ${health.length} asked)`,
    );
    return {
      note: `minute push: ${MINUTE_PUSH_DAYS} days of heart rate and steps every minute, ${gen.points} points, ${gen.bytes} bytes, streamed from disk; /healthz asked ${health.length} times meanwhile`,
      figures: [
        { key: 'hae.minute_mb', label: 'minute push: size', value: gen.bytes / 1e6, unit: 'MB' },
        { key: 'hae.minute_samples', label: 'minute push: samples', value: samples, unit: 'samples' },
        { key: 'hae.minute_s', label: 'minute push: post to answer', value: r.ms / 1000, unit: 's' },
        { key: 'hae.minute_cpu_ms', label: 'minute push: server CPU time', value: cpu, unit: 'ms' },
        {
          key: 'hae.minute_samples_per_cpu_s',
          label: 'minute push: samples stored per second of server CPU',
          value: samples / (cpu / 1000),
          unit: 'samples/s',
        },
        {
          key: 'hae.minute_samples_per_s',
          label: 'minute push: samples stored per second (wall)',
          value: samples / (r.ms / 1000),
          unit: 'samples/s',
        },
        {
          key: 'hae.minute_floor_cpu_ms',
          label: 'floor: JSON.parse + one durable transaction writing every point of the minute push (CPU)',
          value: floor,
          unit: 'ms',
        },
        {
          key: 'hae.minute_cpu_ratio',
          label: 'minute push: server CPU / floor',
          value: cpu / floor,
          unit: 'x',
        },
        {
          key: 'hae.minute_healthz_p99_ms',
          label: 'minute push: /healthz latency meanwhile, p99',
          value: p99,
          unit: 'ms',
          target: { op: '<', value: 100 },
        },
        {
          key: 'hae.minute_healthz_max_ms',
          label: 'minute push: /healthz latency meanwhile, max',
          value: h.max,
          unit: 'ms',
        },
      ],
    };
  } finally {
    done = true;
    agent.destroy();
    await server.stop();
  }
}

export const haeIngest: Benchmark = {
  name: 'hae-ingest',
  title:
    'Health Auto Export webhook: real 1.6 MB payload, re-send, generated 100 MB payload (10 MB with --quick), 21.8 MB minute push with /healthz meanwhile',
  async run(ctx) {
    const dir = makeTempDir('hae-ingest');
    const real = fs.readFileSync(REAL_FILE);
    const runs = ctx.quick ? 2 : 5;
    const first: number[] = [];
    const resend: number[] = [];
    const firstCpu: number[] = [];
    const resendCpu: number[] = [];
    const warm: number[] = [];
    const warmCpu: number[] = [];
    // the same payload four years later: new samples, new dates, same size and shape
    const later = Buffer.from(
      real
        .toString('utf8')
        .replace(/"(\d{4})-(\d\d-\d\d)/g, (_m, y: string, md: string) => `"${Number(y) + 4}-${md}`),
    );
    let rowsFirst = 0;
    let samples = 0;
    for (let i = 0; i < runs; i++) {
      const { server, haeToken } = await serverWithCards(dir, `real-${i + 1}`);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const c0 = cpuMs(server.child.pid);
        const a = await post(server.url, haeToken, real, agent);
        const c1 = cpuMs(server.child.pid);
        if (a.status !== 200 || a.answer.ok !== true)
          throw new Error(`first post: ${a.status} ${JSON.stringify(a.answer).slice(0, 300)}`);
        // a re-send costs about one 10 ms tick of /proc CPU time: sent RESENDS times, the CPU summed
        const resendMs: number[] = [];
        for (let k = 0; k < RESENDS; k++) {
          const b = await post(server.url, haeToken, real, agent);
          if (b.status !== 200 || b.answer.ok !== true) throw new Error(`re-send: ${b.status}`);
          resendMs.push(b.ms);
        }
        const c2raw = cpuMs(server.child.pid);
        const b = { ms: summarize(resendMs).median };
        const w = await post(server.url, haeToken, later, agent);
        const c3 = cpuMs(server.child.pid);
        const c2 = c1 + (c2raw - c1) / RESENDS;
        if (w.status !== 200 || w.answer.ok !== true) throw new Error(`warm post: ${w.status}`);
        warmCpu.push(c3 - c2raw);
        first.push(a.ms);
        resend.push(b.ms);
        warm.push(w.ms);
        firstCpu.push(c1 - c0);
        resendCpu.push(c2 - c1);
        rowsFirst = Object.values(a.answer.ingested as Record<string, number>).reduce((x, y) => x + y, 0);
        samples = (a.answer.samples as { received: number }).received;
        progress(
          `real payload ${i + 1}/${runs}: first ${a.ms.toFixed(0)} ms (server CPU ${c1 - c0} ms), re-send ${b.ms.toFixed(0)} ms (CPU ${(c2 - c1).toFixed(1)} ms), new 1.6 MB to the running server ${w.ms.toFixed(0)} ms (CPU ${c3 - c2raw} ms)`,
        );
      } finally {
        agent.destroy();
        await server.stop();
      }
    }

    const floor = pushFloorCpuMs(dir, real, runs);
    progress(`floor (JSON.parse + one durable transaction of every point): ${floor.toFixed(1)} ms CPU`);

    // just under the webhook's 100 MB limit (KLEBB_HAE_MAX_BYTES default)
    const target = ctx.quick ? 10_000_000 : 100_000_000;
    const file = path.join(dir, 'generated.json');
    const gen = await writeHaePayload(file, target);
    progress(`generated ${(gen.bytes / 1e6).toFixed(1)} MB: ${gen.days} days, ${gen.points} points`);
    const { server, haeToken } = await serverWithCards(dir, 'big');
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    let big: { ms: number; answer: Record<string, unknown> };
    let hwmStart: number;
    let hwm: number;
    let rssMax = 0;
    let rssAfter: number;
    try {
      hwmStart = procStatusMB(server.child.pid, 'VmHWM');
      const timer = setInterval(() => {
        try {
          rssMax = Math.max(rssMax, procStatusMB(server.child.pid, 'VmRSS'));
        } catch {
          // the process is gone; the post will fail and say so
        }
      }, 50);
      try {
        const r = await post(server.url, haeToken, { file }, agent);
        if (r.status !== 200 || r.answer.ok !== true)
          throw new Error(`big post: ${r.status} ${JSON.stringify(r.answer).slice(0, 300)}`);
        big = r;
      } finally {
        clearInterval(timer);
      }
      hwm = procStatusMB(server.child.pid, 'VmHWM');
      rssAfter = procStatusMB(server.child.pid, 'VmRSS');
      progress(`generated payload: ${(big.ms / 1000).toFixed(1)} s, VmHWM ${hwm.toFixed(0)} MB`);
    } finally {
      agent.destroy();
      await server.stop();
    }
    const minute = await minutePush(dir);
    const bigSamples = (big.answer.samples as { received: number; new: number }).received;
    const f = summarize(first).median;
    const r = summarize(resend).median;
    const figures: Figure[] = [
      {
        key: 'hae.real_first_ms',
        label: `real 1.6 MB payload, first post (median of ${runs})`,
        value: f,
        unit: 'ms',
        target: { op: '<', value: 500 },
      },
      {
        key: 'hae.real_first_max_ms',
        label: `real payload, first post (max of ${runs})`,
        value: Math.max(...first),
        unit: 'ms',
      },
      {
        key: 'hae.real_resend_ms',
        label: `real payload, re-sent (median of ${runs} homes, each the median of ${RESENDS} re-sends)`,
        value: r,
        unit: 'ms',
        target: { op: '<', value: 500 / 3 },
      },
      {
        key: 'hae.real_resend_ratio',
        label: 're-send / first post (medians)',
        value: r / f,
        unit: 'x',
        target: { op: '<', value: 1 / 3 },
      },
      {
        key: 'hae.real_warm_ms',
        label: `the same payload 4 years later (all new), to the same running server (median of ${runs})`,
        value: summarize(warm).median,
        unit: 'ms',
        target: { op: '<', value: 500 },
      },
      {
        key: 'hae.real_first_cpu_ms',
        label: `server CPU time of the first post (median of ${runs}; 10 ms ticks)`,
        value: summarize(firstCpu).median,
        unit: 'ms',
      },
      {
        key: 'hae.real_resend_cpu_ms',
        label: `server CPU time of one re-send (median of ${runs} homes, each ${RESENDS} re-sends summed / ${RESENDS})`,
        value: summarize(resendCpu).median,
        unit: 'ms',
      },
      {
        key: 'hae.real_warm_cpu_ms',
        label: `server CPU time of the 4-years-later post (median of ${runs})`,
        value: summarize(warmCpu).median,
        unit: 'ms',
      },
      {
        key: 'hae.floor_cpu_ms',
        label: 'floor: JSON.parse + one durable transaction writing every point (CPU, this process)',
        value: floor,
        unit: 'ms',
      },
      {
        key: 'hae.first_cpu_ratio',
        label: 'first post: server CPU / floor',
        value: summarize(firstCpu).median / floor,
        unit: 'x',
        target: { op: '<=', value: 2 },
      },
      {
        key: 'hae.warm_cpu_ratio',
        label: 'new samples to a warm server: server CPU / floor',
        value: summarize(warmCpu).median / floor,
        unit: 'x',
        target: { op: '<=', value: 2 },
      },
      {
        key: 'hae.resend_cpu_ratio',
        label: 're-send: server CPU / floor',
        value: summarize(resendCpu).median / floor,
        unit: 'x',
        target: { op: '<=', value: 1 },
      },
      { key: 'hae.real_samples', label: 'samples in the real payload', value: samples, unit: 'samples' },
      { key: 'hae.real_rows', label: 'card rows written by the first post', value: rowsFirst, unit: 'rows' },
      { key: 'hae.big_mb', label: 'generated payload size', value: gen.bytes / 1e6, unit: 'MB' },
      {
        key: 'hae.big_samples',
        label: 'samples in the generated payload',
        value: bigSamples,
        unit: 'samples',
      },
      { key: 'hae.big_s', label: 'generated payload: post to answer', value: big.ms / 1000, unit: 's' },
      { key: 'hae.big_hwm_start_mb', label: 'server VmHWM before the post', value: hwmStart, unit: 'MB' },
      {
        key: 'hae.big_hwm_mb',
        label: 'server VmHWM (peak RSS) after the post',
        value: hwm,
        unit: 'MB',
        target: { op: '<', value: 300 },
      },
      {
        key: 'hae.big_rss_max_mb',
        label: 'server VmRSS, highest sample (every 50 ms)',
        value: rssMax,
        unit: 'MB',
      },
      { key: 'hae.big_rss_after_mb', label: 'server VmRSS after the post', value: rssAfter, unit: 'MB' },
      ...minute.figures,
    ];
    return {
      figures,
      notes: [
        `real payload: ${path.basename(REAL_FILE)} (${real.length} bytes), posted to a fresh home with cards ${CARDS.map((c) => c[1]).join(', ')}; one keep-alive connection; ${runs} fresh homes`,
        `generated: ${gen.days} days x 8 metric blocks (minute-level heart rate, steps, distance, energy; stand time; weight; sleep), ${gen.points} points, streamed from disk with Content-Length`,
        'memory from /proc/<pid>/status of the server process (MB = 10^6 bytes)',
        minute.note,
      ],
    };
  },
};
