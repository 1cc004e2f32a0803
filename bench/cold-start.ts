/**
 * cold-start: how long the server takes to become ready on a big home, and how much memory it
 * holds. The home has 200 cards of 10 000 rows each (2 000 000 rows), seeded through the store
 * (lib/fixtures.ts) and closed before the measurement.
 *
 * How: spawn `node dist/server/main.js` (production log level, 127.0.0.1, free port) and poll
 * `GET /healthz` every 2 ms on a fresh connection; the start time is spawn() to the first 200.
 * Right after, VmRSS is read from /proc/<pid>/status, then one `GET /api/manifests` is made and
 * VmRSS (and the peak, VmHWM) read again; then the server is stopped (SIGTERM). Five starts;
 * the first and the median are reported (targets: < 1.5 s to /healthz, < 200 MB RSS).
 * For scale, each start is followed by one of a bare `node:http` server that answers 200 to
 * everything (same spawn and polling), whose median is reported as the floor on this machine.
 * The seeded files are in the OS page cache (they were just written): this is a process cold
 * start, not a disk-cold one.
 */
import path from 'node:path';
import type { Benchmark } from './lib/bench.js';
import { cardsHome } from './lib/fixtures.js';
import { expectStatus } from './lib/http.js';
import { BENCH_TOKEN, startKlebb } from './lib/klebb.js';
import { freePort, procStatusMB, spawnNode, waitForOk } from './lib/proc.js';
import { type Figure, progress } from './lib/report.js';
import { summarize } from './lib/stats.js';

const BARE_SERVER = `require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');`;

async function bareNodeStart(logFile: string): Promise<{ ms: number; rssMB: number }> {
  const port = await freePort();
  const child = spawnNode(['-e', BARE_SERVER], { env: { PORT: String(port) }, logFile });
  try {
    const okAt = await waitForOk(`http://127.0.0.1:${port}/healthz`, child);
    return { ms: okAt - child.spawnedAt, rssMB: procStatusMB(child.pid, 'VmRSS') };
  } finally {
    await child.stop();
  }
}

export const coldStart: Benchmark = {
  name: 'cold-start',
  title: 'Cold start on a home of 200 cards x 10 000 rows (20 x 1 000 with --quick)',
  async run(ctx) {
    const fx = await cardsHome(ctx);
    const runs = ctx.quick ? 2 : 5;
    const startMs: number[] = [];
    const rssStart: number[] = [];
    const rssList: number[] = [];
    const hwm: number[] = [];
    const bare: { ms: number; rssMB: number }[] = [];
    let listed = 0;
    for (let i = 0; i < runs; i++) {
      const server = await startKlebb(fx.home, path.join(fx.dir, `cold-start-${i + 1}.log`));
      try {
        startMs.push(server.startMs);
        rssStart.push(procStatusMB(server.child.pid, 'VmRSS'));
        const r = expectStatus(
          await server.client.request('/api/manifests', { token: BENCH_TOKEN }),
          200,
          'GET /api/manifests',
        );
        listed = (JSON.parse(r.body) as { entries: unknown[] }).entries.length;
        rssList.push(procStatusMB(server.child.pid, 'VmRSS'));
        hwm.push(procStatusMB(server.child.pid, 'VmHWM'));
        progress(
          `start ${i + 1}/${runs}: ${server.startMs.toFixed(0)} ms to /healthz, RSS ${rssStart[i].toFixed(1)} MB`,
        );
      } finally {
        await server.stop();
      }
      bare.push(await bareNodeStart(path.join(fx.dir, 'bare-node.log')));
    }
    if (listed !== fx.cards)
      throw new Error(`GET /api/manifests listed ${listed} cards, expected ${fx.cards}`);
    const s = summarize(startMs);
    const figures: Figure[] = [
      {
        key: 'cold.first_healthz_ms',
        label: 'spawn to /healthz, first start',
        value: startMs[0],
        unit: 'ms',
        target: { op: '<', value: 1500 },
      },
      {
        key: 'cold.median_healthz_ms',
        label: `spawn to /healthz, median of ${runs}`,
        value: s.median,
        unit: 'ms',
        target: { op: '<', value: 1500 },
      },
      { key: 'cold.max_healthz_ms', label: `spawn to /healthz, max of ${runs}`, value: s.max, unit: 'ms' },
      {
        key: 'cold.rss_after_start_mb',
        label: 'VmRSS after start (median)',
        value: summarize(rssStart).median,
        unit: 'MB',
        target: { op: '<', value: 200 },
      },
      {
        key: 'cold.rss_after_list_mb',
        label: 'VmRSS after GET /api/manifests (median)',
        value: summarize(rssList).median,
        unit: 'MB',
        target: { op: '<', value: 200 },
      },
      {
        key: 'cold.hwm_after_list_mb',
        label: 'VmHWM (peak RSS) after the listing (max)',
        value: Math.max(...hwm),
        unit: 'MB',
      },
      {
        key: 'cold.bare_node_http_ms',
        label: 'baseline: bare node:http server to 200 (median)',
        value: summarize(bare.map((b) => b.ms)).median,
        unit: 'ms',
      },
      {
        key: 'cold.bare_node_rss_mb',
        label: 'baseline: bare node:http server VmRSS (median)',
        value: summarize(bare.map((b) => b.rssMB)).median,
        unit: 'MB',
      },
      {
        key: 'cold.seed_s',
        label: `seeding ${fx.cards} x ${fx.rowsPerCard} rows (once per run)`,
        value: fx.seedS,
        unit: 's',
      },
    ];
    const notes = [
      `home: ${fx.cards} cards x ${fx.rowsPerCard.toLocaleString('en-US')} rows = ${(fx.cards * fx.rowsPerCard).toLocaleString('en-US')} rows, seeded through the store, no welcome card`,
      `all starts: ${startMs.map((v) => v.toFixed(0)).join(', ')} ms; RSS after start: ${rssStart.map((v) => v.toFixed(1)).join(', ')} MB`,
      'MB = 10^6 bytes (/proc reports KiB, converted); page cache is warm (process cold start, not disk cold)',
    ];
    return { figures, notes };
  },
};
