/**
 * Runs the benchmarks: all of them, or the ones named on the command line, in a fixed order.
 *
 *   npm run build && npm run bench                       # everything (~several minutes)
 *   npm run bench -- cold-start list-manifests           # some of them
 *   npm run bench -- --quick                             # small sizes: checks the plumbing only
 *
 * Each benchmark prints a table of its figures (with its target, if any, and whether it
 * is reached) to stdout as it finishes; progress goes to stderr. The last stdout line is one JSON
 * object with every figure, also written to bench/out/latest.json. Timings are never asserted:
 * the exit code is non-zero only when a benchmark could not run (a server that did not start, a
 * request that failed).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { appendLatency } from './append-latency.js';
import { appleHealthImport } from './apple-health-import.js';
import { changeLog } from './change-log.js';
import { chatConcurrency } from './chat-concurrency.js';
import { chatRelay } from './chat-relay.js';
import { chatRoundTrip } from './chat-round-trip.js';
import { chatWidget } from './chat-widget.js';
import { coldStart } from './cold-start.js';
import { conversationSearch } from './conversation-search.js';
import { conversationTurn } from './conversation-turn.js';
import { dashboard } from './dashboard.js';
import { dataExportImport } from './data-export-import.js';
import { haeIngest } from './hae-ingest.js';
import { idleMemory } from './idle-memory.js';
import { jsonServerPeer } from './json-server-peer.js';
import { type Benchmark, createContext } from './lib/bench.js';
import { benchLogLevel, repoRoot } from './lib/klebb.js';
import { killAllChildren } from './lib/proc.js';
import { type BenchResult, figuresJson, formatTable, progress } from './lib/report.js';
import { removeAllTemp } from './lib/temp.js';
import { listManifests } from './list-manifests.js';
import { promptSize } from './prompt-size.js';
import { pushScheduler } from './push-scheduler.js';
import { reattachReplay } from './reattach-replay.js';
import { reportReading } from './report-reading.js';
import { soak } from './soak.js';
import { staticAssets } from './static-assets.js';

const ALL: Benchmark[] = [
  appendLatency,
  changeLog,
  jsonServerPeer,
  coldStart,
  listManifests,
  chatRoundTrip,
  chatRelay,
  chatConcurrency,
  conversationTurn,
  reattachReplay,
  conversationSearch,
  haeIngest,
  appleHealthImport,
  chatWidget,
  dashboard,
  dataExportImport,
  idleMemory,
  soak,
  pushScheduler,
  reportReading,
  promptSize,
  staticAssets,
];

function usage(): string {
  return `usage: npm run bench -- [--quick] [${ALL.map((b) => b.name).join(' | ')} ...]`;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${usage()}\n`);
    return 0;
  }
  const quick = args.includes('--quick');
  const names = args.filter((a) => !a.startsWith('--'));
  const unknown = names.filter((n) => !ALL.some((b) => b.name === n));
  if (unknown.length) {
    process.stderr.write(`unknown benchmark(s): ${unknown.join(', ')}\n${usage()}\n`);
    return 2;
  }
  const selected = names.length ? ALL.filter((b) => names.includes(b.name)) : ALL;
  const ctx = createContext(quick);
  const started = new Date();
  const t0 = performance.now();
  const machine = {
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    tmpdir: os.tmpdir(),
    /** 1-minute load average at the start and the end: other work on the machine skews every figure. */
    loadavgStart: Math.round(os.loadavg()[0] * 100) / 100,
    loadavgEnd: Number.NaN,
  };
  process.stdout.write(
    `Klebb benchmarks ${started.toISOString()}: ${selected.map((b) => b.name).join(', ')}${quick ? ' (QUICK: small sizes, not comparable)' : ''}\n` +
      `node ${machine.node}, ${machine.cpus} CPU (${machine.cpuModel}), ${machine.memGiB} GiB, ${machine.platform}; ` +
      `load average ${machine.loadavgStart}; server log level ${benchLogLevel}\n`,
  );

  const results: BenchResult[] = [];
  for (const b of selected) {
    progress(`--- ${b.name} ---`);
    const bt = performance.now();
    const r = await b.run(ctx);
    const result: BenchResult = {
      name: b.name,
      title: b.title,
      ...r,
      durationS: (performance.now() - bt) / 1000,
    };
    results.push(result);
    process.stdout.write(`${formatTable(result)}\n`);
  }
  const totalS = (performance.now() - t0) / 1000;
  machine.loadavgEnd = Math.round(os.loadavg()[0] * 100) / 100;
  const line = {
    klebbBench: 1,
    startedAt: started.toISOString(),
    totalS: Math.round(totalS * 10) / 10,
    quick,
    serverLogLevel: benchLogLevel,
    machine,
    results: Object.fromEntries(
      results.map((r) => [
        r.name,
        { durationS: Math.round(r.durationS * 10) / 10, figures: figuresJson(r), notes: r.notes },
      ]),
    ),
  };
  process.stdout.write(
    `\nall benchmarks done in ${totalS.toFixed(1)} s (load average at the end ${machine.loadavgEnd})\n`,
  );
  const outDir = path.join(repoRoot, 'bench/out');
  try {
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(path.join(outDir, 'latest.json'), `${JSON.stringify(line, null, 2)}\n`);
  } catch (err) {
    progress(`could not write bench/out/latest.json: ${(err as Error).message}`);
  }
  process.stdout.write(`${JSON.stringify(line)}\n`);
  return 0;
}

function cleanup(): void {
  killAllChildren();
  removeAllTemp();
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    progress(`${sig}: stopping servers and removing temp folders`);
    cleanup();
    process.exit(130);
  });
}

main()
  .then((code) => {
    cleanup();
    process.exitCode = code;
  })
  .catch((err) => {
    cleanup();
    process.stderr.write(`bench failed: ${(err as Error).stack ?? err}\n`);
    process.exitCode = 1;
  });
