/**
 * soak: ten minutes of mixed traffic on one instance (1 minute with --quick; SOAK_MINUTES
 * overrides), to see whether memory grows and whether the event loop stays responsive.
 *
 * How: Klebb as a child (`node dist/server/main.js`, production log level) on a home with a weight
 * card, chat pointed at the instant gateway in this process. Traffic, each on its own loop:
 * - 2 clients appending a weight row every 200 ms;
 * - 2 clients reading the card list and one card every 500 ms;
 * - a chat turn every 5 s (a tool call, then a streamed answer);
 * - a live-events client connecting every 2 s and leaving after 1–5 s;
 * - a Health Auto Export push of a generated payload (about 200 KB) every minute.
 * Every 10 s: resident memory from /proc and the event-loop delay figures from `GET /metrics`
 * (prom-client's monitorEventLoopDelay, reset at each scrape, so each sample covers 10 s).
 * Figures: idle RSS before the traffic, RSS after a warm-up of a fifth of the run, RSS at the
 * end and its growth since the warm-up, the worst 10-second p99 event-loop delay, requests made
 * and failed. Targets: growth after warm-up under 10 MB ("flat"), p99 event-loop delay < 50 ms.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Benchmark } from './lib/bench.js';
import { chatEnv } from './lib/chat.js';
import { writeHaePayload } from './lib/hae-payload.js';
import { HttpClient } from './lib/http.js';
import { type GatewayAnswer, type GatewayCall, startInstantGateway } from './lib/instant-gateway.js';
import { BENCH_TOKEN, type KlebbServer, startKlebb, weightManifest } from './lib/klebb.js';
import { procStatusMB } from './lib/proc.js';
import { type Figure, progress } from './lib/report.js';
import { sseRequest } from './lib/sse-client.js';
import { round } from './lib/stats.js';
import { makeTempDir, removeTempDir } from './lib/temp.js';

const ADMIN = 'klebb-bench-admin-token';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** One value of a Prometheus exposition text (first series of that name). */
function metric(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : Number.NaN;
}

interface Counts {
  requests: number;
  failed: number;
}

/** Runs `fn` every `everyMs` until `until`, counting outcomes (a thrown error counts as failed). */
async function loop(
  until: number,
  everyMs: number,
  counts: Counts,
  fn: () => Promise<boolean>,
): Promise<void> {
  while (performance.now() < until) {
    const t0 = performance.now();
    counts.requests++;
    try {
      if (!(await fn())) counts.failed++;
    } catch {
      counts.failed++;
    }
    await sleep(Math.max(0, Math.min(everyMs - (performance.now() - t0), until - performance.now())));
  }
}

/** A live-events client: connects, stays `stayMs`, leaves. True when the stream opened (200). */
function liveClient(url: string, stayMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(
      url,
      { headers: { authorization: `Bearer ${BENCH_TOKEN}`, accept: 'text/event-stream' } },
      (res) => {
        res.resume();
        setTimeout(() => {
          req.destroy();
          resolve(res.statusCode === 200);
        }, stayMs);
      },
    );
    req.on('error', () => resolve(false));
  });
}

export const soak: Benchmark = {
  name: 'soak',
  title: 'Soak: mixed traffic on one instance (10 min; 1 min with --quick)',
  async run(ctx) {
    const minutes = Number(process.env.SOAK_MINUTES ?? (ctx.quick ? 1 : 10));
    const dir = makeTempDir('soak');
    const gw = await startInstantGateway((call: GatewayCall): GatewayAnswer => {
      if (call.toolResults === 0)
        return { kind: 'tools', calls: [{ name: 'read_manifest_meta', arguments: { id: 'weight' } }] };
      return {
        kind: 'text',
        text: 'Your weight is steady this week.',
        chunks: ['Your ', 'weight ', 'is ', 'steady ', 'this ', 'week.'],
      };
    });
    const payload = path.join(dir, 'hae.json');
    await writeHaePayload(payload, 200_000);
    const push = fs.readFileSync(payload, 'utf8');
    let server: KlebbServer | undefined;
    try {
      server = await startKlebb(path.join(dir, 'home'), path.join(dir, 'server.log'), {
        ...chatEnv(gw, { debug: false }),
        KLEBB_ADMIN_TOKEN: ADMIN,
      });
      const base = server.url;
      const pid = server.child.pid;
      const admin = new HttpClient(base);
      const mk = await admin.request('/api/manifests', {
        json: weightManifest('weight', 'Weight'),
        token: BENCH_TOKEN,
      });
      if (mk.status !== 201) throw new Error(`creating the card: ${mk.status} ${mk.body}`);
      const tok = await admin.request('/api/health-auto-export/token', {
        method: 'POST',
        token: BENCH_TOKEN,
      });
      const haeToken = (JSON.parse(tok.body) as { token: string }).token;
      await sleep(5000);
      await admin.request('/metrics', { token: ADMIN }); // start a fresh event-loop window
      const idleRss = procStatusMB(pid, 'VmRSS');

      const t0 = performance.now();
      const until = t0 + minutes * 60_000;
      const warmAt = t0 + minutes * 12_000;
      const counts: Counts = { requests: 0, failed: 0 };
      let day = 0;
      const appender = () => {
        const c = new HttpClient(base);
        return loop(until, 200, counts, async () => {
          const d = new Date(Date.UTC(2000, 0, 1) + day++ * 86_400_000).toISOString().slice(0, 10);
          const r = await c.request('/api/manifests/weight/rows', {
            json: { value: { date: d, kg: 70 + (day % 50) / 10 } },
            token: BENCH_TOKEN,
          });
          return r.status === 201;
        }).finally(() => c.close());
      };
      const viewer = () => {
        const c = new HttpClient(base);
        return loop(until, 500, counts, async () => {
          const a = await c.request('/api/manifests', { token: BENCH_TOKEN });
          const b = await c.request('/api/manifests/weight', { token: BENCH_TOKEN });
          return a.status === 200 && b.status === 200;
        }).finally(() => c.close());
      };
      const chatter = loop(until, 5000, counts, async () => {
        const r = await sseRequest(`${base}/api/chat`, {
          json: { stream: true, messages: [{ role: 'user', content: 'how is my weight?' }] },
          token: BENCH_TOKEN,
          keep: false,
        });
        return r.status === 200 && r.done;
      });
      const watcher = loop(until, 2000, counts, () =>
        liveClient(`${base}/api/events`, 1000 + Math.random() * 4000),
      );
      const hae = new HttpClient(base);
      const pusher = loop(until, 60_000, counts, async () => {
        const r = await hae.request('/api/health-auto-export', { body: push, token: haeToken });
        return r.status === 200;
      }).finally(() => hae.close());

      const samples: { t: number; rss: number; p99: number }[] = [];
      const sampler = (async () => {
        while (performance.now() < until) {
          await sleep(10_000);
          const m = await admin.request('/metrics', { token: ADMIN });
          const p99 = metric(m.body, 'klebb_nodejs_eventloop_lag_p99_seconds') * 1000;
          samples.push({ t: performance.now() - t0, rss: procStatusMB(pid, 'VmRSS'), p99 });
          progress(
            `soak: ${Math.round((performance.now() - t0) / 1000)} s, RSS ${samples.at(-1)?.rss.toFixed(1)} MB, p99 loop delay ${p99.toFixed(1)} ms, ${counts.requests} requests`,
          );
        }
      })();
      await Promise.all([appender(), appender(), viewer(), viewer(), chatter, watcher, pusher, sampler]);
      admin.close();

      const warm = samples.filter((s) => s.t >= warmAt - t0);
      const warmRss = warm[0]?.rss ?? Number.NaN;
      const endRss = samples.at(-1)?.rss ?? Number.NaN;
      const worstP99 = Math.max(...samples.map((s) => s.p99));
      const figures: Figure[] = [
        { key: 'soak_idle_rss_mb', label: 'idle RSS before traffic', value: round(idleRss, 1), unit: 'MB' },
        { key: 'soak_warm_rss_mb', label: 'RSS after warm-up', value: round(warmRss, 1), unit: 'MB' },
        { key: 'soak_end_rss_mb', label: 'RSS at the end', value: round(endRss, 1), unit: 'MB' },
        {
          key: 'soak_rss_growth_mb',
          label: 'RSS growth after warm-up',
          value: round(endRss - warmRss, 1),
          unit: 'MB',
          target: { op: '<', value: 10 },
        },
        {
          key: 'soak_loop_p99_ms',
          label: 'worst 10 s p99 event-loop delay',
          value: round(worstP99, 1),
          unit: 'ms',
          target: { op: '<', value: 50 },
        },
        { key: 'soak_requests', label: 'requests made', value: counts.requests, unit: '' },
        {
          key: 'soak_failed',
          label: 'requests failed',
          value: counts.failed,
          unit: '',
          target: { op: '<=', value: 0 },
        },
      ];
      return {
        figures,
        notes: [
          `${minutes} min; warm-up ${minutes * 12} s; ${samples.length} samples every 10 s`,
          `RSS samples (MB): ${samples.map((s) => s.rss.toFixed(0)).join(' ')}`,
          `p99 loop delay samples (ms): ${samples.map((s) => s.p99.toFixed(0)).join(' ')}`,
        ],
      };
    } finally {
      await server?.stop();
      await gw.close();
      removeTempDir(dir);
    }
  },
};
