/**
 * Appends from many clients at once against appends from one, on the same server and card, in
 * the same run: each client has its own keep-alive socket and appends strictly one after the
 * other (a closed loop), so `clients` requests are in flight at any time. One operation of the
 * `one client` participant is `perClient` sequential appends; one of the `N clients` participant
 * is `perClient` sequential appends on each of the N sockets at once. The two alternate, so load
 * drifting on a shared machine falls on both alike.
 */

import { performance } from 'node:perf_hooks';
import { type Appender, appender } from './append.js';
import { HttpClient } from './http.js';
import { BENCH_TOKEN } from './klebb.js';
import { type Summary, summarize } from './stats.js';

/** Throughput and per-append latency of one client and of `clients` clients. */
export interface ConcurrentResult {
  clients: number;
  one: { perSecond: number; latency: Summary };
  many: { perSecond: number; latency: Summary };
  /** Appends made by both participants together (to check the row count). */
  appends: number;
}

/**
 * @param url the server; `path` the rows route of a card holding `firstRow` rows.
 * @param opts.rounds measured operations per participant (after `warmup` unmeasured ones).
 */
export async function concurrentAppends(
  url: string,
  path: string,
  opts: { clients: number; perClient: number; rounds: number; warmup: number; firstRow: number },
): Promise<ConcurrentResult> {
  const clients = Array.from({ length: opts.clients }, () => new HttpClient(url));
  // every client's rows get their own range of dates, after the seeded ones
  const apps: Appender[] = clients.map((c, k) =>
    appender(c, path, {
      bodyOf: (row) => ({ value: row }),
      firstRow: opts.firstRow + k * 1_000_000,
      token: BENCH_TOKEN,
    }),
  );
  const lat = { one: [] as number[], many: [] as number[] };
  let recording = false;
  const run = async (a: Appender, into: number[]) => {
    for (let j = 0; j < opts.perClient; j++) {
      const ms = await a.append();
      if (recording) into.push(ms);
    }
  };
  const wall = { one: 0, many: 0 };
  try {
    const timed = async (which: 'one' | 'many', work: () => Promise<unknown>) => {
      const t0 = performance.now();
      await work();
      const ms = performance.now() - t0;
      if (recording) wall[which] += ms;
      return ms;
    };
    const one = () => timed('one', () => run(apps[0], lat.one));
    const many = () => timed('many', () => Promise.all(apps.map((a) => run(a, lat.many))));
    for (let r = 0; r < opts.warmup + opts.rounds; r++) {
      recording = r >= opts.warmup;
      // alternate which goes first, so drifting load falls on both alike
      for (const op of r % 2 ? [many, one] : [one, many]) await op();
    }
    return {
      clients: opts.clients,
      one: { perSecond: lat.one.length / (wall.one / 1000), latency: summarize(lat.one) },
      many: { perSecond: lat.many.length / (wall.many / 1000), latency: summarize(lat.many) },
      appends: apps.reduce((n, a) => n + a.done, 0),
    };
  } finally {
    for (const c of clients) c.close();
  }
}
