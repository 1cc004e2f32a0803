/**
 * list-manifests: latency of `GET /api/manifests` (every card's manifest plus its data summary)
 * on a home of 200 cards of 10 000 rows each (the cold-start fixture, seeded through the store).
 *
 * How: the real server as a child process (`node dist/server/main.js`, production log level,
 * 127.0.0.1, free port), 50 warm-up requests, then 500 measured sequential requests with the
 * AGENT_API_TOKEN bearer over one keep-alive socket, timed by the client from sending to the last
 * byte. Reports median, p95, p99, max, requests per second and the response size (target:
 * median < 5 ms). Baseline: as many `GET /healthz` on the same socket, interleaved with them in
 * blocks of 10 (lib/interleave.ts), for the cost of the HTTP stack alone.
 */
import path from 'node:path';
import { healthzProbe } from './lib/baseline.js';
import type { Benchmark } from './lib/bench.js';
import { cardsHome } from './lib/fixtures.js';
import { expectStatus } from './lib/http.js';
import { interleave } from './lib/interleave.js';
import { BENCH_TOKEN, startKlebb } from './lib/klebb.js';
import { type Figure, progress } from './lib/report.js';

export const listManifests: Benchmark = {
  name: 'list-manifests',
  title: 'GET /api/manifests with 200 cards (20 with --quick)',
  async run(ctx) {
    const fx = await cardsHome(ctx);
    const warmup = ctx.quick ? 10 : 50;
    const count = ctx.quick ? 100 : 500;
    const server = await startKlebb(fx.home, path.join(fx.dir, 'list-manifests.log'));
    try {
      const get = async () =>
        expectStatus(
          await server.client.request('/api/manifests', { token: BENCH_TOKEN }),
          200,
          'GET /api/manifests',
        );
      const first = await get();
      const entries = (JSON.parse(first.body) as { entries: unknown[] }).entries.length;
      if (entries !== fx.cards) throw new Error(`listed ${entries} cards, expected ${fx.cards}`);
      progress(
        `list-manifests: ${warmup} warm-up + ${count} measured requests, interleaved with GET /healthz`,
      );
      const results = await interleave(
        [{ name: 'list', op: async () => (await get()).ms }, healthzProbe(server.client)],
        { warmup, count, block: 10 },
      );
      const list = results.get('list');
      const healthz = results.get('healthz');
      if (!list || !healthz) throw new Error('missing results');
      const s = list.latency;
      const perSecond = list.perSecond;
      const figures: Figure[] = [
        {
          key: 'list.median_ms',
          label: 'median',
          value: s.median,
          unit: 'ms',
          target: { op: '<', value: 5 },
        },
        { key: 'list.p95_ms', label: 'p95', value: s.p95, unit: 'ms' },
        { key: 'list.p99_ms', label: 'p99', value: s.p99, unit: 'ms' },
        { key: 'list.max_ms', label: 'max', value: s.max, unit: 'ms' },
        { key: 'list.per_s', label: 'sequential requests/s', value: perSecond, unit: '1/s' },
        {
          key: 'list.response_kib',
          label: 'response size',
          value: Buffer.byteLength(first.body) / 1024,
          unit: 'KiB',
        },
        { key: 'list.cards', label: 'cards listed', value: entries, unit: '' },
        {
          key: 'list.baseline_healthz_median_ms',
          label: 'baseline GET /healthz, median',
          value: healthz.latency.median,
          unit: 'ms',
        },
      ];
      const notes = [
        `${fx.cards} cards x ${fx.rowsPerCard.toLocaleString('en-US')} rows; ${warmup} warm-up + ${count} measured requests, one keep-alive socket, interleaved with GET /healthz in blocks of 10`,
      ];
      return { figures, notes };
    } finally {
      await server.stop();
    }
  },
};
