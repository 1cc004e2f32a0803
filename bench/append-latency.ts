/**
 * append-latency: how long `POST /api/manifests/:id/rows` (`{value: {date, kg}}`, AGENT_API_TOKEN
 * bearer) takes on a card that already holds 1 000, 100 000 and 1 000 000 rows.
 *
 * How: one fresh temp HEALTH_HOME per size, each served by the real server as a child process
 * (`node dist/server/main.js`, production log level, 127.0.0.1, free port). The card is seeded
 * - 1k and 100k: over HTTP, `POST /api/manifests` then one `POST /api/manifests/:id/data`;
 * - 1M: before its server starts, through the store (openInstance + createCard +
 *   CardDataStore.replace from dist), because 1M rows (~38 MB of JSON) do not fit the 10 MB
 *   body limit. replace() is what the HTTP route calls, so the stored rows are the same.
 * With the three servers up, 50 warm-up and then 500 measured appends per size are made one at a
 * time, interleaved in blocks of 10 (lib/interleave.ts) so drift in machine load falls on every
 * size alike; each server is reached over its own keep-alive socket and latency is client-side,
 * from sending to the last byte of the 201. Reports median, p95, p99, max, sequential appends
 * per second (measured appends / time spent in them) and median(1M) / median(1k)
 * (targets: ratio <= 1.5, >= 500 appends/s).
 * Interleaved with them, as baselines: fdatasync of 4 KiB in the temp folder (every append waits
 * for one such flush) and `GET /healthz` on the 1k server (the HTTP stack alone). Their sum is
 * the floor of a sequential append; median(1k) / floor has the target <= 1.5.
 *
 * Then many clients at once (lib/concurrent-append.ts): on a second card of the 1k server
 * (1 000 rows), 8 clients each appending one row after the other on their own socket, alternated
 * with one client doing the same; reports both appends/s and their ratio (target >= 5: the
 * writes of concurrent clients share one flush of the disk, src/store/wal-sync.ts), and the
 * server's process CPU per append. Alternated with them in the same rounds, the floor of that
 * case: a bare Fastify + better-sqlite3 server doing the same insert with the same group-commit
 * durability (lib/bare-append.ts), with one and with 8 clients. On a 2-core machine the bench
 * client shares the CPUs with the server, so the floor's ratio is what the machine allows at best.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Appender, appender } from './lib/append.js';
import { startBareAppend } from './lib/bare-append.js';
import { fdatasyncProbe, healthzProbe } from './lib/baseline.js';
import type { Benchmark } from './lib/bench.js';
import { type ConcurrentResult, concurrentAppends } from './lib/concurrent-append.js';
import { expectStatus } from './lib/http.js';
import { interleave, type Participant } from './lib/interleave.js';
import {
  BENCH_TOKEN,
  createCardHttp,
  type KlebbServer,
  replaceDataHttp,
  repoRoot,
  seedHomeViaStore,
  startKlebb,
} from './lib/klebb.js';
import type { Child } from './lib/proc.js';
import { type Figure, progress } from './lib/report.js';
import { makeTempDir, removeTempDir } from './lib/temp.js';

/** Largest card seeded over HTTP; bigger ones go through the store. */
const HTTP_SEED_MAX_ROWS = 100_000;
const CARD = 'weight';
const BLOCK = 10;
/** The card of the concurrent case (on the smallest server). */
const CONCURRENT_CARD = 'weight-many';
const CONCURRENT_CLIENTS = 8;
const CONCURRENT_ROWS = 1_000;

function sizeLabel(n: number): string {
  return n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n);
}

interface SizeRun {
  size: number;
  label: string;
  dir: string;
  server?: KlebbServer;
  seedS: number;
  how: string;
  appender?: Appender;
}

async function prepare(run: SizeRun): Promise<void> {
  const home = path.join(run.dir, 'home');
  const log = path.join(run.dir, 'server.log');
  const t0 = performance.now();
  if (run.size <= HTTP_SEED_MAX_ROWS) {
    run.server = await startKlebb(home, log);
    progress(`${run.label}: seeding ${run.size} rows over HTTP (POST /api/manifests/${CARD}/data)`);
    await createCardHttp(run.server.client, CARD);
    await replaceDataHttp(run.server.client, CARD, run.size);
    run.how = 'HTTP POST /data';
  } else {
    progress(
      `${run.label}: seeding ${run.size} rows through the store (CardDataStore.replace), then starting the server`,
    );
    await seedHomeViaStore(home, [{ id: CARD, rows: run.size }], { keepWelcome: true });
    run.server = await startKlebb(home, log);
    run.how = 'store.replace before start';
  }
  run.seedS = (performance.now() - t0) / 1000;
  const probe = expectStatus(
    await run.server.client.request(`/api/manifests/${CARD}/rows?limit=1`, { token: BENCH_TOKEN }),
    200,
    'read row count',
  );
  const total = (JSON.parse(probe.body) as { total: number }).total;
  if (total !== run.size)
    throw new Error(`${run.label}: expected ${run.size} rows after seeding, the card has ${total}`);
  run.appender = appender(run.server.client, `/api/manifests/${CARD}/rows`, {
    bodyOf: (row) => ({ value: row }),
    firstRow: run.size,
    token: BENCH_TOKEN,
  });
}

export const appendLatency: Benchmark = {
  name: 'append-latency',
  title: 'Append one row over HTTP, by card size',
  async run(ctx) {
    const sizes = ctx.quick ? [1_000, 10_000, 200_000] : [1_000, 100_000, 1_000_000];
    const warmup = ctx.quick ? 10 : 50;
    const count = ctx.quick ? 100 : 500;
    const runs: SizeRun[] = sizes.map((size) => {
      const label = sizeLabel(size);
      return { size, label, dir: makeTempDir(`append-${label}`), seedS: 0, how: '' };
    });
    const disk = fdatasyncProbe(runs[0].dir);
    let bare: Child | undefined;
    try {
      // the store-seeded (largest) one first, while no server competes for the CPU
      for (const run of [...runs].sort((a, b) => b.size - a.size)) await prepare(run);
      const participants: Participant[] = runs.map((run) => ({
        name: run.label,
        op: () => (run.appender as Appender).append(),
      }));
      participants.push(disk, healthzProbe((runs[0].server as KlebbServer).client));
      progress(`${warmup} warm-up + ${count} measured appends per size, interleaved in blocks of ${BLOCK}`);
      const results = await interleave(participants, {
        warmup,
        count,
        block: BLOCK,
        onRound: (done, total) => {
          if (done % 100 === 0) progress(`  ${done}/${total} measured appends per size`);
        },
      });

      const first = runs[0].server as KlebbServer;
      progress(
        `${CONCURRENT_CLIENTS} clients at once against one, on a second card of the ${runs[0].label} server`,
      );
      await createCardHttp(first.client, CONCURRENT_CARD);
      await replaceDataHttp(first.client, CONCURRENT_CARD, CONCURRENT_ROWS);
      const floor = await startBareAppend(repoRoot, runs[0].dir);
      bare = floor.child;
      const concurrent = await concurrentAppends(
        [
          {
            name: 'klebb',
            url: first.url,
            path: `/api/manifests/${CONCURRENT_CARD}/rows`,
            firstRow: CONCURRENT_ROWS,
            pid: first.child.pid,
          },
          { name: 'bare', url: floor.url, path: '/rows', firstRow: 0, pid: floor.child.pid },
        ],
        {
          clients: CONCURRENT_CLIENTS,
          perClient: BLOCK,
          rounds: ctx.quick ? 5 : 25,
          warmup: ctx.quick ? 1 : 3,
        },
      );
      const many = concurrent.get('klebb') as ConcurrentResult;
      const bareMany = concurrent.get('bare') as ConcurrentResult;
      await checkConcurrentRows(first, many);

      const figures: Figure[] = [];
      for (const run of runs) {
        const after = (JSON.parse(run.appender?.last?.body ?? '{}') as { totalAfter?: number }).totalAfter;
        if (after !== run.size + warmup + count) {
          throw new Error(
            `${run.label}: expected ${run.size + warmup + count} rows after the appends, got ${after}`,
          );
        }
        const r = results.get(run.label);
        if (!r) throw new Error(`no result for ${run.label}`);
        const k = `append.${run.label}`;
        figures.push(
          { key: `${k}.median_ms`, label: `${run.label} rows: median`, value: r.latency.median, unit: 'ms' },
          { key: `${k}.p95_ms`, label: `${run.label} rows: p95`, value: r.latency.p95, unit: 'ms' },
          { key: `${k}.p99_ms`, label: `${run.label} rows: p99`, value: r.latency.p99, unit: 'ms' },
          { key: `${k}.max_ms`, label: `${run.label} rows: max`, value: r.latency.max, unit: 'ms' },
          {
            key: `${k}.per_s`,
            label: `${run.label} rows: sequential appends/s`,
            value: r.perSecond,
            unit: '1/s',
            target: { op: '>=', value: 500 },
          },
        );
      }
      const small = runs[0];
      const big = runs[runs.length - 1];
      figures.push({
        key: `append.ratio_${big.label}_${small.label}`,
        label: `median(${big.label}) / median(${small.label})`,
        value:
          (results.get(big.label)?.latency.median as number) /
          (results.get(small.label)?.latency.median as number),
        unit: 'x',
        target: { op: '<=', value: 1.5 },
      });
      const fsync = results.get('fdatasync');
      const healthz = results.get('healthz');
      if (fsync && healthz) {
        figures.push(
          {
            key: 'append.baseline.fdatasync_median_ms',
            label: 'baseline: fdatasync 4 KiB, median',
            value: fsync.latency.median,
            unit: 'ms',
          },
          {
            key: 'append.baseline.fdatasync_p95_ms',
            label: 'baseline: fdatasync 4 KiB, p95',
            value: fsync.latency.p95,
            unit: 'ms',
          },
          {
            key: 'append.baseline.healthz_median_ms',
            label: 'baseline: GET /healthz, median',
            value: healthz.latency.median,
            unit: 'ms',
          },
        );
      }
      if (fsync && healthz) {
        const floor = fsync.latency.median + healthz.latency.median;
        figures.push(
          {
            key: 'append.floor_ms',
            label: 'floor: fdatasync median + GET /healthz median',
            value: floor,
            unit: 'ms',
          },
          {
            key: `append.ratio_${small.label}_floor`,
            label: `median(${small.label}) / floor`,
            value: (results.get(small.label)?.latency.median as number) / floor,
            unit: 'x',
            target: { op: '<=', value: 1.5 },
          },
        );
      }
      figures.push(...concurrentFigures(many, bareMany));
      for (const run of runs) {
        figures.push({
          key: `append.${run.label}.seed_s`,
          label: `${run.label} rows: seeding time (${run.how})`,
          value: run.seedS,
          unit: 's',
        });
      }
      const notes = [
        `seeding: ${runs.map((r) => `${r.label} via ${r.how}`).join('; ')}`,
        `${warmup} warm-up + ${count} measured appends per size, interleaved in blocks of ${BLOCK} with the baselines; one keep-alive socket per server; client-side latency`,
        `concurrent: ${CONCURRENT_CLIENTS} clients x ${BLOCK} sequential appends each per round, alternated with one client x ${BLOCK}, on card ${CONCURRENT_CARD} of the ${small.label} server; floor: the same rounds on a bare Fastify + better-sqlite3 server (same insert, same group commit), alternated with Klebb's; CPU: server process user + system per append`,
      ];
      return { figures, notes };
    } finally {
      await bare?.stop();
      disk.close();
      for (const run of runs) {
        await run.server?.stop();
        removeTempDir(run.dir);
      }
    }
  },
};

/** The concurrent case's card must hold its seeded rows plus every append made. */
async function checkConcurrentRows(server: KlebbServer, r: ConcurrentResult): Promise<void> {
  const probe = expectStatus(
    await server.client.request(`/api/manifests/${CONCURRENT_CARD}/rows?limit=1`, { token: BENCH_TOKEN }),
    200,
    'read row count',
  );
  const total = (JSON.parse(probe.body) as { total: number }).total;
  if (total !== CONCURRENT_ROWS + r.appends)
    throw new Error(`concurrent: expected ${CONCURRENT_ROWS + r.appends} rows, the card has ${total}`);
}

function concurrentFigures(r: ConcurrentResult, floor: ConcurrentResult): Figure[] {
  const n = r.clients;
  return [
    { key: 'append.one_client.per_s', label: 'one client: appends/s', value: r.one.perSecond, unit: '1/s' },
    {
      key: 'append.one_client.median_ms',
      label: 'one client: median',
      value: r.one.latency.median,
      unit: 'ms',
    },
    {
      key: 'append.one_client.cpu_ms',
      label: 'one client: server CPU per append',
      value: r.one.cpuMsPerAppend,
      unit: 'ms',
    },
    {
      key: `append.clients_${n}.per_s`,
      label: `${n} clients: appends/s`,
      value: r.many.perSecond,
      unit: '1/s',
    },
    {
      key: `append.clients_${n}.median_ms`,
      label: `${n} clients: median per append`,
      value: r.many.latency.median,
      unit: 'ms',
    },
    {
      key: `append.clients_${n}.p99_ms`,
      label: `${n} clients: p99 per append`,
      value: r.many.latency.p99,
      unit: 'ms',
    },
    {
      key: `append.clients_${n}.cpu_ms`,
      label: `${n} clients: server CPU per append`,
      value: r.many.cpuMsPerAppend,
      unit: 'ms',
    },
    {
      key: `append.ratio_clients_${n}_1`,
      label: `appends/s: ${n} clients / one client`,
      value: r.many.perSecond / r.one.perSecond,
      unit: 'x',
      target: { op: '>=', value: 5 },
    },
    {
      key: 'append.floor.one_client.per_s',
      label: 'floor (bare Fastify + SQLite, same group commit): one client, appends/s',
      value: floor.one.perSecond,
      unit: '1/s',
    },
    {
      key: `append.floor.clients_${n}.per_s`,
      label: `floor: ${n} clients, appends/s`,
      value: floor.many.perSecond,
      unit: '1/s',
    },
    {
      key: `append.floor.clients_${n}.cpu_ms`,
      label: `floor: ${n} clients, server CPU per append`,
      value: floor.many.cpuMsPerAppend,
      unit: 'ms',
    },
    {
      key: `append.floor.ratio_clients_${n}_1`,
      label: `floor: appends/s ${n} clients / one client`,
      value: floor.many.perSecond / floor.one.perSecond,
      unit: 'x',
    },
    {
      key: `append.clients_${n}.per_s_of_floor`,
      label: `${n} clients: Klebb appends/s / floor's`,
      value: r.many.perSecond / floor.many.perSecond,
      unit: 'x',
    },
  ];
}
