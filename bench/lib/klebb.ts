/**
 * Klebb-specific plumbing: a weight-card manifest and its rows, seeding a home directly through
 * the store (openInstance + createCard + CardDataStore.replace from dist, the same code path a
 * `POST /api/manifests/:id/data` takes, minus HTTP and its body limit), and running the real
 * server as a child process (the script `npm start` runs) on a free loopback port.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCard, deleteCard, WELCOME_CARD_ID } from '../../src/cards/card-crud.js';
import { loadConfig } from '../../src/config.js';
import { openInstance } from '../../src/instance.js';
import { expectStatus, HttpClient } from './http.js';
import { type Child, freePort, spawnNode, waitForOk } from './proc.js';

/** The bearer token every benchmark server is started with. */
export const BENCH_TOKEN = 'klebb-bench-token';

/** Repository root (this file is dist/bench/lib/klebb.js once built). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The environment `npm start` sets before `node` (the `VAR=value` words that lead its script in
 * package.json, such as the malloc setting of docs/DEPLOY.md), so a benchmark server runs as a
 * production one does.
 */
export function startScriptEnv(): Record<string, string> {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const env: Record<string, string> = {};
  for (const word of pkg.scripts.start.split(/\s+/)) {
    const m = /^([A-Z_][A-Z0-9_]*)=(\S*)$/.exec(word);
    if (!m) break;
    env[m[1]] = m[2];
  }
  return env;
}

/**
 * Entry point of the built server: the script `npm start` runs (the word after `node` in its
 * script in package.json, the production bundle dist/server/main.js), so a benchmark measures
 * what a production server runs.
 */
export const mainJs = (() => {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const m = /\bnode\s+(\S+)/.exec(pkg.scripts.start);
  if (!m) throw new Error('package.json start script does not run node <script>');
  return path.join(repoRoot, m[1]);
})();

/**
 * Log level of the benchmark servers: the production default (`info`, one pino line per request
 * to a log file) unless BENCH_LOG_LEVEL says otherwise.
 */
export const benchLogLevel = process.env.BENCH_LOG_LEVEL ?? 'info';

/** A writeable weight card like the ones the README uses, without data. */
export function weightManifest(id: string, label = `Weight ${id}`): Record<string, unknown> {
  return {
    $schema: 'klebb.datafile.v1',
    meta: {
      id,
      label,
      emoji: '⚖️',
      view: { enabled: true, component: 'list-card' },
      writeable: {
        fromWebapp: true,
        inputs: [
          { key: 'date', label: 'Date', type: 'date', required: true },
          { key: 'kg', label: 'Weight (kg)', type: 'number', required: true },
        ],
      },
    },
    description: 'Morning weight, one row per day.',
  };
}

const DAY_MS = 86_400_000;
const EPOCH = Date.UTC(1900, 0, 1);

/** Date (YYYY-MM-DD) of day `i` counted from 1900-01-01. */
export function rowDate(i: number): string {
  return new Date(EPOCH + i * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Weight rows logged per day: Klebb takes days from 1900 to 2099 only (73 049 of them), so a
 * million rows and the appends after them share days, each row still on or after the last.
 */
const ROWS_PER_DAY = 16;

/** Row `i` of a weight card: `{date, kg}`, in day order (ROWS_PER_DAY a day from 1900-01-01). */
export function weightRow(i: number): { date: string; kg: number } {
  return { date: rowDate(Math.floor(i / ROWS_PER_DAY)), kg: 60 + ((i * 7) % 400) / 10 };
}

/** `n` rows starting at row index `from`. */
export function weightRows(n: number, from = 0): { date: string; kg: number }[] {
  const rows = new Array(n);
  for (let k = 0; k < n; k++) rows[k] = weightRow(from + k);
  return rows;
}

/**
 * Seeds `home` (a fresh folder) without a server: opens the instance (no watcher), creates each
 * card empty, writes its rows with one `store.replace`, removes the welcome card unless asked to
 * keep it, and closes (WAL checkpointed).
 */
export async function seedHomeViaStore(
  home: string,
  cards: { id: string; rows: number }[],
  opts: { keepWelcome?: boolean; onCard?: (i: number) => void } = {},
): Promise<void> {
  const inst = await openInstance(loadConfig({ HEALTH_HOME: home, KLEBB_LOG_LEVEL: 'silent' }), {
    watch: false,
  });
  try {
    cards.forEach((c, i) => {
      createCard(inst.cards, weightManifest(c.id), 'bench-seed');
      inst.cards.store.replace(c.id, weightRows(c.rows), 'bench-seed', 'seed');
      opts.onCard?.(i);
    });
    if (!opts.keepWelcome && inst.cards.registry.has(WELCOME_CARD_ID)) {
      deleteCard(inst.cards, WELCOME_CARD_ID, 'bench-seed');
    }
  } finally {
    await inst.close();
  }
}

/** A running Klebb child process. */
export interface KlebbServer {
  url: string;
  child: Child;
  /** ms from spawn() to the first 200 from /healthz (polled every 2 ms). */
  startMs: number;
  client: HttpClient;
  stop(): Promise<void>;
}

/**
 * Starts `node <mainJs>` on `home` (HOST 127.0.0.1, a free port, AGENT_API_TOKEN set) and
 * waits for `/healthz`. Output goes to `logFile`.
 */
export async function startKlebb(
  home: string,
  logFile: string,
  env: Record<string, string> = {},
): Promise<KlebbServer> {
  const port = await freePort();
  const child = spawnNode([mainJs], {
    env: {
      HEALTH_HOME: home,
      PORT: String(port),
      HOST: '127.0.0.1',
      AGENT_API_TOKEN: BENCH_TOKEN,
      KLEBB_LOG_LEVEL: benchLogLevel,
      ...startScriptEnv(),
      ...env,
    },
    cwd: repoRoot,
    logFile,
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    const okAt = await waitForOk(`${url}/healthz`, child);
    const client = new HttpClient(url);
    return {
      url,
      child,
      startMs: okAt - child.spawnedAt,
      client,
      async stop() {
        client.close();
        await child.stop();
      },
    };
  } catch (err) {
    await child.stop(2_000);
    throw err;
  }
}

/** `POST /api/manifests` with the weight manifest (and `data: []`). */
export async function createCardHttp(client: HttpClient, id: string): Promise<void> {
  expectStatus(
    await client.request('/api/manifests', { json: { ...weightManifest(id), data: [] }, token: BENCH_TOKEN }),
    201,
    `create card ${id}`,
  );
}

/** `POST /api/manifests/:id/data` with `n` rows in one request. */
export async function replaceDataHttp(client: HttpClient, id: string, n: number): Promise<void> {
  const body = JSON.stringify({ data: weightRows(n) });
  expectStatus(
    await client.request(`/api/manifests/${id}/data`, { body, token: BENCH_TOKEN, timeoutMs: 600_000 }),
    200,
    `seed ${n} rows into ${id}`,
  );
}
