/**
 * json-server-peer: the append workload of append-latency against json-server 0.17.4, a peer that
 * keeps its data in one JSON file and rewrites the whole file on every write, next to Klebb's own
 * figure on a card of the same size.
 *
 * How: json-server (its CLI, `node .../json-server/lib/cli/bin.js db.json`, its
 * default middlewares, stdout to a log file) runs as a child process on 127.0.0.1 and a free port,
 * on a temp db.json of one collection `weights` holding 100 000 rows `{id, date, kg}` (written in
 * json-server's own format: 2-space JSON, integer ids). 50 warm-up + 500 measured sequential
 * `POST /weights` with `{date, kg}` over one keep-alive socket, exactly like ours. Klebb (child
 * process, a 100 000-row card seeded over HTTP, as in append-latency) runs at the same time and
 * the two are interleaved in blocks of 10 (lib/interleave.ts), so both see the same machine.
 * Reports both medians and json-server median / Klebb median.
 * Note: the json-server CLI uses lowdb's FileAsync adapter: each write serialises the whole
 * database (JSON.stringify, 2-space) synchronously before the 201 is sent, then writes a temp
 * file and renames it after the response (steno; overlapping writes coalesce; no fsync). Klebb
 * fsyncs every commit before answering (synchronous=FULL). So json-server's figure is a lower
 * bound for a durable whole-file store. The final db.json is checked to hold every row.
 *
 * json-server is not a dependency (it would add a hundred packages to every install for one
 * benchmark): without it the benchmark says it is skipped and how to run it.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { appender } from './lib/append.js';
import type { Benchmark } from './lib/bench.js';
import { HttpClient } from './lib/http.js';
import { interleave } from './lib/interleave.js';
import {
  BENCH_TOKEN,
  createCardHttp,
  type KlebbServer,
  replaceDataHttp,
  startKlebb,
  weightRow,
} from './lib/klebb.js';
import { type Child, freePort, spawnNode, waitForOk } from './lib/proc.js';
import { type Figure, progress } from './lib/report.js';
import { makeTempDir, removeTempDir } from './lib/temp.js';

const require = createRequire(import.meta.url);
const BLOCK = 10;

/** How to get the peer, for the skip note. */
export const JSON_SERVER_INSTALL = 'npm i --no-save json-server@0.17.4';

/** json-server's CLI and version, or null when it is not installed. */
function jsonServerBin(): { bin: string; version: string } | null {
  let pkgFile: string;
  try {
    pkgFile = require.resolve('json-server/package.json');
  } catch {
    return null;
  }
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as { version: string; bin: string };
  return { bin: path.join(path.dirname(pkgFile), pkg.bin), version: pkg.version };
}

/** Rows in db.json, polled until it holds `want` (json-server's last write lands after its 201). */
async function waitForDbRows(dbFile: string, want: number): Promise<number> {
  let found = 0;
  for (let tries = 0; tries < 100; tries++) {
    try {
      found = (JSON.parse(fs.readFileSync(dbFile, 'utf8')) as { weights: unknown[] }).weights.length;
    } catch {
      found = -1; // not readable at this instant: poll again
    }
    if (found === want) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return found;
}

export const jsonServerPeer: Benchmark = {
  name: 'json-server-peer',
  title: 'Append one row: Klebb vs json-server 0.17.4 (whole-file rewrite)',
  async run(ctx) {
    const rows = ctx.quick ? 10_000 : 100_000;
    const warmup = ctx.quick ? 10 : 50;
    const count = ctx.quick ? 100 : 500;
    const label = rows >= 1000 ? `${rows / 1000}k` : String(rows);
    const peerBin = jsonServerBin();
    if (!peerBin) {
      const note = `json-server is not installed, so json-server-peer is skipped. To run it: ${JSON_SERVER_INSTALL}, then npm run bench -- json-server-peer`;
      progress(note);
      return { figures: [], notes: [note] };
    }
    const { bin, version } = peerBin;
    const ourDir = makeTempDir('peer-klebb');
    const peerDir = makeTempDir('peer-json-server');
    let server: KlebbServer | undefined;
    let child: Child | undefined;
    let peerClient: HttpClient | undefined;
    try {
      server = await startKlebb(path.join(ourDir, 'home'), path.join(ourDir, 'server.log'));
      progress(`klebb: seeding ${rows} rows over HTTP`);
      await createCardHttp(server.client, 'weight');
      await replaceDataHttp(server.client, 'weight', rows);

      const dbFile = path.join(peerDir, 'db.json');
      const weights = Array.from({ length: rows }, (_, i) => ({ id: i + 1, ...weightRow(i) }));
      fs.writeFileSync(dbFile, JSON.stringify({ weights }, null, 2));
      const dbBytesBefore = fs.statSync(dbFile).size;
      const port = await freePort();
      // cwd = the temp dir: json-server looks for its optional json-server.json and writes snapshots there
      child = spawnNode([bin, dbFile, '--port', String(port), '--host', '127.0.0.1'], {
        env: {},
        cwd: peerDir,
        logFile: path.join(peerDir, 'json-server.log'),
      });
      const peerUrl = `http://127.0.0.1:${port}`;
      await waitForOk(`${peerUrl}/weights/1`, child, { intervalMs: 20 });
      peerClient = new HttpClient(peerUrl);

      const ours = appender(server.client, '/api/manifests/weight/rows', {
        bodyOf: (row) => ({ value: row }),
        firstRow: rows,
        token: BENCH_TOKEN,
      });
      const peer = appender(peerClient, '/weights', { bodyOf: (row) => row, firstRow: rows });
      progress(
        `klebb and json-server ${version}: ${warmup} warm-up + ${count} measured appends each, interleaved in blocks of ${BLOCK}`,
      );
      const results = await interleave(
        [
          { name: 'klebb', op: () => ours.append() },
          { name: 'json-server', op: () => peer.append() },
        ],
        {
          warmup,
          count,
          block: BLOCK,
          onRound: (done, total) => {
            if (done % 100 === 0) progress(`  ${done}/${total} measured appends each`);
          },
        },
      );
      const want = rows + warmup + count;
      const ourTotal = (JSON.parse(ours.last?.body ?? '{}') as { totalAfter?: number }).totalAfter;
      if (ourTotal !== want)
        throw new Error(`klebb: expected ${want} rows after the appends, got ${ourTotal}`);
      const found = await waitForDbRows(dbFile, want);
      if (found !== want) throw new Error(`json-server: expected ${want} rows in db.json, found ${found}`);
      const dbBytesAfter = fs.statSync(dbFile).size;

      const k = results.get('klebb');
      const j = results.get('json-server');
      if (!k || !j) throw new Error('missing results');
      const figures: Figure[] = [
        {
          key: `peer.klebb.${label}.median_ms`,
          label: `Klebb, ${label} rows: median`,
          value: k.latency.median,
          unit: 'ms',
        },
        {
          key: `peer.klebb.${label}.p95_ms`,
          label: `Klebb, ${label} rows: p95`,
          value: k.latency.p95,
          unit: 'ms',
        },
        {
          key: `peer.klebb.${label}.per_s`,
          label: `Klebb, ${label} rows: appends/s`,
          value: k.perSecond,
          unit: '1/s',
        },
        {
          key: `peer.json_server.${label}.median_ms`,
          label: `json-server, ${label} rows: median`,
          value: j.latency.median,
          unit: 'ms',
        },
        {
          key: `peer.json_server.${label}.p95_ms`,
          label: `json-server, ${label} rows: p95`,
          value: j.latency.p95,
          unit: 'ms',
        },
        {
          key: `peer.json_server.${label}.per_s`,
          label: `json-server, ${label} rows: appends/s`,
          value: j.perSecond,
          unit: '1/s',
        },
        {
          key: `peer.ratio_json_server_to_klebb.${label}`,
          label: 'median json-server / median Klebb',
          value: j.latency.median / k.latency.median,
          unit: 'x',
        },
        {
          key: 'peer.json_server.db_mib',
          label: 'json-server db.json size (before)',
          value: dbBytesBefore / 1048576,
          unit: 'MiB',
        },
      ];
      const notes = [
        `json-server ${version} CLI with its default middlewares; db.json grew to ${(dbBytesAfter / 1048576).toFixed(2)} MiB`,
        'json-server stringifies the whole db before answering but writes the file after the 201 (async, coalesced, no fsync); Klebb fsyncs every commit before answering',
        `${warmup} warm-up + ${count} measured sequential appends each, interleaved in blocks of ${BLOCK}; one keep-alive socket per server`,
      ];
      return { figures, notes };
    } finally {
      peerClient?.close();
      await child?.stop();
      await server?.stop();
      removeTempDir(ourDir);
      removeTempDir(peerDir);
    }
  },
};
