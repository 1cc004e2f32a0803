/**
 * Appends from many clients at once against appends from one, on one or more servers, in the
 * same run: each client has its own keep-alive socket and appends strictly one after the other
 * (a closed loop), so `clients` requests are in flight at any time. One operation of the `one
 * client` participant is `perClient` sequential appends; one of the `N clients` participant is
 * `perClient` sequential appends on each of the N sockets at once. Every round runs each
 * participant of every server once, starting with a different one each round, so load drifting
 * on a shared machine falls on all alike. When a server's pid is given, its process CPU time
 * (user + system, /proc) per measured append is reported too: on a shared machine a steadier
 * figure than wall time.
 */

import { performance } from 'node:perf_hooks';
import { type Appender, appender } from './append.js';
import { HttpClient } from './http.js';
import { BENCH_TOKEN } from './klebb.js';
import { procCpuMs } from './proc.js';
import { type Summary, summarize } from './stats.js';

/** One server to append to: `path` is a rows route of a card (or table) holding `firstRow` rows. */
export interface AppendTarget {
  name: string;
  url: string;
  path: string;
  firstRow: number;
  /** The server's process id, for its CPU time per append. */
  pid?: number;
}

/** One participant's figures: appends/s over its measured wall time, latency, server CPU. */
export interface PhaseResult {
  perSecond: number;
  latency: Summary;
  /** Server process CPU (user + system) per measured append, ms; NaN without a pid. */
  cpuMsPerAppend: number;
}

/** Throughput, latency and CPU of one client and of `clients` clients on one server. */
export interface ConcurrentResult {
  clients: number;
  one: PhaseResult;
  many: PhaseResult;
  /** Appends made by both participants together (to check the row count). */
  appends: number;
}

interface Phase {
  run: () => Promise<void>;
  lat: number[];
  wall: number;
  cpu: number;
}

/**
 * @param opts.rounds measured rounds (after `warmup` unmeasured ones); each round runs every
 *   participant once.
 * @returns the figures by target name.
 */
export async function concurrentAppends(
  targets: AppendTarget[],
  opts: { clients: number; perClient: number; rounds: number; warmup: number },
): Promise<Map<string, ConcurrentResult>> {
  const all: HttpClient[] = [];
  let recording = false;
  const setups = targets.map((t) => {
    const clients = Array.from({ length: opts.clients }, () => new HttpClient(t.url));
    all.push(...clients);
    // the clients share one row counter: rows arrive in day order, after the seeded ones, as a
    // household's phones logging today would send them
    let nextRow = t.firstRow;
    const apps: Appender[] = clients.map((c) =>
      appender(c, t.path, {
        bodyOf: (row) => ({ value: row }),
        firstRow: t.firstRow,
        next: () => nextRow++,
        token: BENCH_TOKEN,
      }),
    );
    const sequential = async (a: Appender, into: number[]) => {
      for (let j = 0; j < opts.perClient; j++) {
        const ms = await a.append();
        if (recording) into.push(ms);
      }
    };
    const phase = (work: (into: number[]) => Promise<unknown>): Phase => {
      const p: Phase = {
        lat: [],
        wall: 0,
        cpu: 0,
        run: async () => {
          const c0 = t.pid === undefined ? 0 : procCpuMs(t.pid);
          const t0 = performance.now();
          await work(p.lat);
          const ms = performance.now() - t0;
          const cpu = t.pid === undefined ? Number.NaN : procCpuMs(t.pid) - c0;
          if (recording) {
            p.wall += ms;
            p.cpu += cpu;
          }
        },
      };
      return p;
    };
    const one = phase((into) => sequential(apps[0], into));
    const many = phase((into) => Promise.all(apps.map((a) => sequential(a, into))));
    return { t, apps, one, many };
  });
  const phases = setups.flatMap((s) => [s.one, s.many]);
  try {
    for (let r = 0; r < opts.warmup + opts.rounds; r++) {
      recording = r >= opts.warmup;
      // a different participant goes first each round, so drifting load falls on all alike
      for (let k = 0; k < phases.length; k++) await phases[(r + k) % phases.length].run();
    }
    const result = (p: Phase): PhaseResult => ({
      perSecond: p.lat.length / (p.wall / 1000),
      latency: summarize(p.lat),
      cpuMsPerAppend: p.cpu / p.lat.length,
    });
    return new Map(
      setups.map((s) => [
        s.t.name,
        {
          clients: opts.clients,
          one: result(s.one),
          many: result(s.many),
          appends: s.apps.reduce((n, a) => n + a.done, 0),
        },
      ]),
    );
  } finally {
    for (const c of all) c.close();
  }
}
