/**
 * The floor of an idle Klebb's memory: a bare Fastify server with one better-sqlite3 database in
 * WAL mode and a `GET /healthz` route, from the same node_modules. What any server on this stack
 * holds before it does anything of its own.
 */
import path from 'node:path';
import { type Child, freePort, spawnNode, waitForOk } from './proc.js';

const SCRIPT = `
const Fastify = require('fastify');
const Database = require('better-sqlite3');
const db = new Database(process.env.DB);
db.pragma('journal_mode = WAL');
db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body TEXT)');
const app = Fastify({ logger: { level: 'warn' } });
app.get('/healthz', async () => ({ ok: true, rows: db.prepare('SELECT count(*) AS n FROM t').get().n }));
app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
`;

/** Starts the bare server (cwd: the repository, for its node_modules) and waits for /healthz. */
export async function startBareFastify(
  repoRoot: string,
  dir: string,
): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const child = spawnNode(['-e', SCRIPT], {
    env: { PORT: String(port), DB: path.join(dir, 'bare.sqlite') },
    cwd: repoRoot,
    logFile: path.join(dir, 'bare.log'),
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}/healthz`, child);
  return { child, url };
}
