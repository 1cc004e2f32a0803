/**
 * The floor of an append under concurrency: a bare Fastify + better-sqlite3 server, from the same
 * node_modules, whose `POST /rows` stores `body.value` as one JSON row with the same durability
 * as Klebb's row writes (src/store/wal-sync.ts): the commit runs with `synchronous = NORMAL`,
 * then one fdatasync of the WAL on the thread pool is shared by every commit made while the
 * previous flush ran, and the 201 leaves only once the flush covering its row has ended. No
 * auth, no logs, no hooks: what this machine allows at best for the same insert and the same
 * durability, measured alongside Klebb in the same run.
 */
import path from 'node:path';
import { type Child, freePort, spawnNode, waitForOk } from './proc.js';

const SCRIPT = `
const fs = require('node:fs');
const Fastify = require('fastify');
const Database = require('better-sqlite3');
const db = new Database(process.env.DB);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec('CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
const insert = db.prepare('INSERT INTO rows (body) VALUES (?)');
const count = db.prepare('SELECT count(*) FROM rows').pluck();
let total = count.get();
let committed = 0;
let synced = 0;
let running;
let next;
let walFd;
function start() {
  const upTo = committed;
  walFd ??= fs.openSync(process.env.DB + '-wal', 'r');
  const done = new Promise((resolve, reject) => {
    fs.fdatasync(walFd, (err) => {
      running = undefined;
      if (err) return reject(err);
      synced = Math.max(synced, upTo);
      resolve();
    });
  });
  running = { upTo, done };
  return done;
}
function durable() {
  if (synced >= committed) return Promise.resolve();
  if (running && running.upTo >= committed) return running.done;
  if (!running) return start();
  next ??= running.done.catch(() => {}).then(() => {
    next = undefined;
    return synced < committed ? start() : undefined;
  });
  return next;
}
const app = Fastify({ logger: { level: 'warn' } });
app.get('/healthz', async () => ({ ok: true }));
app.post('/rows', async (req, reply) => {
  insert.run(JSON.stringify(req.body.value));
  committed++;
  total++;
  const totalAfter = total;
  await durable();
  reply.code(201);
  return { ok: true, added: 1, totalAfter };
});
app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
`;

/** Starts the bare append server (cwd: the repository, for its node_modules) and waits for /healthz. */
export async function startBareAppend(repoRoot: string, dir: string): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const child = spawnNode(['-e', SCRIPT], {
    env: { PORT: String(port), DB: path.join(dir, 'bare-append.sqlite') },
    cwd: repoRoot,
    logFile: path.join(dir, 'bare-append.log'),
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}/healthz`, child);
  return { child, url };
}
