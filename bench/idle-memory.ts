/**
 * idle-memory: what an idle instance holds, against the floor of its stack, and whether memory
 * is given back after a large write.
 *
 * How: in the same run, a bare Fastify + better-sqlite3 server (lib/bare-fastify.ts) and Klebb
 * (`node dist/server/main.js`, production log level) on a new home with one weight card of 1 000
 * rows. Both answer a few requests, then rest SETTLE_S seconds; then RSS, PSS and private memory
 * are read from /proc/<pid>/smaps_rollup (lib/proc-memory.ts). Then Klebb takes a large write
 * (the card's data replaced by 100 000 rows, about 4 MB of JSON, over HTTP) and a Health Auto
 * Export push of about 4 MB; its memory is read right after and again after SETTLE_S seconds
 * at rest. Targets: idle RSS <= 70 MB; RSS after the rest at most 10 MB above idle.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startBareFastify } from './lib/bare-fastify.js';
import type { Benchmark } from './lib/bench.js';
import { writeHaePayload } from './lib/hae-payload.js';
import { expectStatus, HttpClient } from './lib/http.js';
import {
  BENCH_TOKEN,
  createCardHttp,
  replaceDataHttp,
  repoRoot,
  startKlebb,
  startScriptEnv,
} from './lib/klebb.js';
import type { Child } from './lib/proc.js';
import { type ProcMemory, procMemory } from './lib/proc-memory.js';
import { type Figure, progress } from './lib/report.js';
import { makeTempDir, removeTempDir } from './lib/temp.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function memoryFigures(prefix: string, who: string, m: ProcMemory, rssTarget?: number): Figure[] {
  return [
    {
      key: `${prefix}.rss_mb`,
      label: `${who}: RSS`,
      value: m.rssMB,
      unit: 'MB',
      ...(rssTarget ? { target: { op: '<=' as const, value: rssTarget } } : {}),
    },
    { key: `${prefix}.pss_mb`, label: `${who}: PSS`, value: m.pssMB, unit: 'MB' },
    { key: `${prefix}.private_mb`, label: `${who}: private`, value: m.privateMB, unit: 'MB' },
  ];
}

export const idleMemory: Benchmark = {
  name: 'idle-memory',
  title: 'Memory of an idle instance, against a bare Fastify + SQLite server',
  async run(ctx) {
    const settleMs = (ctx.quick ? 5 : 20) * 1000;
    const dir = makeTempDir('idle-memory');
    let bare: { child: Child; url: string } | undefined;
    const server = await startKlebb(path.join(dir, 'home'), path.join(dir, 'server.log'));
    try {
      bare = await startBareFastify(repoRoot, dir);
      const bareClient = new HttpClient(bare.url);
      await createCardHttp(server.client, 'weight');
      await replaceDataHttp(server.client, 'weight', 1_000);
      for (let i = 0; i < 5; i++) {
        expectStatus(
          await server.client.request('/api/manifests', { token: BENCH_TOKEN }),
          200,
          'list cards',
        );
        expectStatus(await bareClient.request('/healthz'), 200, 'bare /healthz');
      }
      bareClient.close();
      progress(`resting ${settleMs / 1000} s before reading memory`);
      await sleep(settleMs);
      const idle = procMemory(server.child.pid);
      const floor = procMemory(bare.child.pid);

      progress('a large write: 100 000 rows over HTTP, then a Health Auto Export push of about 4 MB');
      await replaceDataHttp(server.client, 'weight', 100_000);
      const tok = expectStatus(
        await server.client.request('/api/health-auto-export/token', { method: 'POST', token: BENCH_TOKEN }),
        201,
        'HAE token',
      );
      const haeToken = (JSON.parse(tok.body) as { token: string }).token;
      const payload = path.join(dir, 'hae.json');
      await writeHaePayload(payload, 4_000_000);
      expectStatus(
        await server.client.request('/api/health-auto-export', {
          body: fs.readFileSync(payload, 'utf8'),
          token: haeToken,
          timeoutMs: 300_000,
        }),
        200,
        'HAE push',
      );
      const after = procMemory(server.child.pid);
      progress(`resting ${settleMs / 1000} s after the large write`);
      await sleep(settleMs);
      const rested = procMemory(server.child.pid);

      const figures: Figure[] = [
        ...memoryFigures('idle.klebb', 'Klebb idle', idle, 70),
        ...memoryFigures('idle.floor', 'floor (bare Fastify + SQLite) idle', floor),
        {
          key: 'idle.rss_over_floor_mb',
          label: 'Klebb idle RSS - floor RSS',
          value: idle.rssMB - floor.rssMB,
          unit: 'MB',
        },
        {
          key: 'idle.after_write.rss_mb',
          label: 'Klebb right after the large write: RSS',
          value: after.rssMB,
          unit: 'MB',
        },
        ...memoryFigures('idle.rested', `Klebb ${settleMs / 1000} s after the large write`, rested),
        {
          key: 'idle.rested.rss_over_idle_mb',
          label: 'RSS kept after the large write (rested - idle)',
          value: rested.rssMB - idle.rssMB,
          unit: 'MB',
          target: { op: '<=', value: 10 },
        },
      ];
      return {
        figures,
        notes: [
          'RSS, PSS and private (Private_Clean + Private_Dirty) from /proc/<pid>/smaps_rollup, MB = 10^6 bytes',
          `floor: node -e with fastify + better-sqlite3 (WAL, one table, GET /healthz), same node and node_modules; both read after ${settleMs / 1000} s at rest`,
          'large write: POST /api/manifests/weight/data with 100 000 rows, then one Health Auto Export push of about 4 MB',
          `Klebb runs with the environment npm start sets (${
            Object.entries(startScriptEnv())
              .map(([k, v]) => `${k}=${v}`)
              .join(' ') || 'none'
          })`,
        ],
      };
    } finally {
      await server.stop();
      await bare?.child.stop();
      removeTempDir(dir);
    }
  },
};
