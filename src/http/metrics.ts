/**
 * Prometheus metrics for operators (`GET /metrics`, admin token), with prom-client. One registry
 * per app, never prom-client's global one: tests and tools run several apps in one process.
 *
 * What is measured: HTTP requests by route template, method and status (and their duration),
 * chat turns by end reason and duration, chat gateway failures by kind, Health Auto Export
 * pushes by outcome and size, the database's size on disk, the reminder scheduler's lag, event
 * streams dropped for a client that stopped reading, and
 * Node's own process figures (memory, event-loop delay, garbage collection).
 */
import fs from 'node:fs';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Buckets for request and turn durations, seconds. */
const HTTP_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const TURN_BUCKETS = [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/** The HAE webhook's route: its requests are also counted as pushes. */
const HAE_ROUTE = '/api/health-auto-export';

/** What the metrics read on demand: the database files to size. */
export interface MetricsSources {
  /** The SQLite file; its -wal and -shm companions are added when present. */
  dbFile: string;
}

/** The metrics of one app. */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'route' | 'method' | 'status'>;
  private readonly requestSeconds: Histogram<'route' | 'method'>;
  private readonly turns: Counter<'reason'>;
  private readonly turnSeconds: Histogram<'reason'>;
  private readonly gatewayErrors: Counter<'kind'>;
  private readonly haePushes: Counter<'outcome'>;
  private readonly haeBytes: Counter;
  private readonly schedulerLag: Gauge;
  private readonly slowClients: Counter<'stream'>;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'klebb_' });
    this.requests = new Counter({
      name: 'klebb_http_requests_total',
      help: 'HTTP requests answered, by route template, method and status code',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.requestSeconds = new Histogram({
      name: 'klebb_http_request_duration_seconds',
      help: 'Time from request to the end of the answer (event streams: until they close), seconds',
      labelNames: ['route', 'method'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.turns = new Counter({
      name: 'klebb_chat_turns_total',
      help: 'Chat turns ended, by how they ended (answered, capped, iter_timeout, deadline, stopped, gateway_error)',
      labelNames: ['reason'],
      registers,
    });
    this.turnSeconds = new Histogram({
      name: 'klebb_chat_turn_duration_seconds',
      help: 'Chat turn wall-clock time, by how it ended, seconds',
      labelNames: ['reason'],
      buckets: TURN_BUCKETS,
      registers,
    });
    this.gatewayErrors = new Counter({
      name: 'klebb_chat_gateway_errors_total',
      help: 'Chat turns that ended because the language model endpoint failed, by kind of failure',
      labelNames: ['kind'],
      registers,
    });
    this.haePushes = new Counter({
      name: 'klebb_hae_pushes_total',
      help: 'Health Auto Export pushes received, by outcome (stored, refused, failed)',
      labelNames: ['outcome'],
      registers,
    });
    this.haeBytes = new Counter({
      name: 'klebb_hae_push_bytes_total',
      help: 'Bytes of Health Auto Export pushes received',
      registers,
    });
    this.schedulerLag = new Gauge({
      name: 'klebb_scheduler_lag_seconds',
      help: 'How late the reminder scheduler ran its last tick, seconds',
      registers,
    });
    this.slowClients = new Counter({
      name: 'klebb_sse_slow_clients_dropped_total',
      help: 'Event streams ended because their client stopped reading while events piled up, by stream (events, chat)',
      labelNames: ['stream'],
      registers,
    });
    new Gauge({
      name: 'klebb_database_bytes',
      help: 'Size of the SQLite database on disk (main file, write-ahead log and shared memory), bytes',
      registers,
      collect() {
        this.set(databaseBytes(sources.dbFile));
      },
    });
  }

  /** Counts one answered request. `route` is the route template (`unmatched` for a 404 of no route). */
  observeRequest(r: {
    route: string;
    method: string;
    status: number;
    seconds: number;
    bytesIn: number;
  }): void {
    this.requests.inc({ route: r.route, method: r.method, status: String(r.status) });
    this.requestSeconds.observe({ route: r.route, method: r.method }, r.seconds);
    if (r.route === HAE_ROUTE && r.method === 'POST') {
      this.haePushes.inc({ outcome: r.status < 300 ? 'stored' : r.status < 500 ? 'refused' : 'failed' });
      this.haeBytes.inc(r.bytesIn);
    }
  }

  /** Counts one ended chat turn; `gatewayKind` names the failure when the model endpoint failed. */
  observeTurn(t: { reason: string; seconds: number; gatewayKind?: string }): void {
    this.turns.inc({ reason: t.reason });
    this.turnSeconds.observe({ reason: t.reason }, t.seconds);
    if (t.reason === 'gateway_error') this.gatewayErrors.inc({ kind: t.gatewayKind ?? 'unknown' });
  }

  /** Records how late the scheduler's latest tick ran, seconds. */
  observeSchedulerLag(seconds: number): void {
    this.schedulerLag.set(seconds);
  }

  /** Counts one event stream dropped because its client stopped reading. */
  observeSlowClient(stream: 'events' | 'chat'): void {
    this.slowClients.inc({ stream });
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}

function databaseBytes(dbFile: string): number {
  let total = 0;
  for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) {
    try {
      total += fs.statSync(f).size;
    } catch {
      // a companion file that does not exist adds nothing
    }
  }
  return total;
}
