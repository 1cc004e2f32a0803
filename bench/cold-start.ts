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
 *
 * Then a large card file arrives while a server runs (largeFileDrop): a manifest of 200 000 rows
 * (about 29 MB; 20 000 with --quick) is renamed into the data folder of a fresh home, and
 * `GET /healthz` is asked every 10 ms on its own connection until the card is listed with all
 * its rows; the largest /healthz time is how long the server stopped answering. The same again
 * with a second file for the same card (its rows replaced).
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Benchmark } from './lib/bench.js';
import { cardsHome } from './lib/fixtures.js';
import { expectStatus, HttpClient } from './lib/http.js';
import { BENCH_TOKEN, type KlebbServer, startKlebb } from './lib/klebb.js';
import { freePort, procStatusMB, spawnNode, waitForOk } from './lib/proc.js';
import { type Figure, progress } from './lib/report.js';
import { summarize } from './lib/stats.js';
import { makeTempDir, removeTempDir } from './lib/temp.js';

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

/** A manifest of `rows` heart-rate readings, shaped like a tester's export (about 145 bytes a row). */
function largeManifest(rows: number, shift: number): string {
  const data = Array.from({ length: rows }, (_, i) => ({
    date: new Date(Date.UTC(2000, 0, 1) + i * 3_600_000).toISOString(),
    value: 60 + ((i + shift) % 400) / 10,
    unit: 'bpm',
    source: 'Apple Watch of someone',
    note: `reading number ${i} with some text`,
  }));
  return JSON.stringify(
    { $schema: 'klebb.datafile.v1', meta: { id: 'large', label: 'Large' }, data },
    null,
    1,
  );
}

/** What one drop of a large file cost: the longest /healthz, and drop to listed. */
interface DropResult {
  healthzMaxMs: number;
  healthzCount: number;
  loadMs: number;
  bytes: number;
}

/** Renames `text` into the data folder as large.json and waits until the card lists `rows` rows at `version` > `after`. */
async function dropAndWatch(
  server: KlebbServer,
  dataDir: string,
  text: string,
  rows: number,
  after: number,
): Promise<DropResult & { version: number }> {
  const probe = new HttpClient(server.url);
  const tmp = path.join(dataDir, '.large.json.incoming');
  fs.writeFileSync(tmp, text);
  let done = false;
  const times: number[] = [];
  const poll = (async () => {
    while (!done) {
      times.push(expectStatus(await probe.request('/healthz'), 200, 'GET /healthz').ms);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const t0 = performance.now();
  fs.renameSync(tmp, path.join(dataDir, 'large.json'));
  let version = after;
  try {
    const giveUp = t0 + 600_000;
    for (;;) {
      const r = expectStatus(
        await server.client.request('/api/manifests', { token: BENCH_TOKEN }),
        200,
        'GET /api/manifests',
      );
      const card = (
        JSON.parse(r.body) as { entries: { id: string; rowCount: number; version: number }[] }
      ).entries.find((e) => e.id === 'large');
      if (card && card.rowCount === rows && card.version > after) {
        version = card.version;
        break;
      }
      if (performance.now() > giveUp) throw new Error('the large file was not loaded within 10 minutes');
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    done = true;
    await poll;
    probe.close();
  }
  const loadMs = performance.now() - t0;
  return {
    healthzMaxMs: Math.max(...times),
    healthzCount: times.length,
    loadMs,
    bytes: Buffer.byteLength(text),
    version,
  };
}

/** A large card file dropped into a running server's data folder, then replaced (see the file comment). */
async function largeFileDrop(quick: boolean): Promise<{ added: DropResult; replaced: DropResult }> {
  const rows = quick ? 20_000 : 200_000;
  const home = makeTempDir('large-file');
  const server = await startKlebb(home, path.join(home, 'server.log'));
  try {
    const dataDir = path.join(home, 'data');
    progress(`cold-start: a ${rows.toLocaleString('en-US')}-row card file dropped into a running server`);
    const added = await dropAndWatch(server, dataDir, largeManifest(rows, 0), rows, 0);
    progress('cold-start: the same card file again, with other values');
    const replaced = await dropAndWatch(server, dataDir, largeManifest(rows, 7), rows, added.version);
    return { added, replaced };
  } finally {
    await server.stop();
    removeTempDir(home);
  }
}

export const coldStart: Benchmark = {
  name: 'cold-start',
  title:
    'Cold start on a home of 200 cards x 10 000 rows, and a 200 000-row card file dropped in (20 x 1 000 and 20 000 with --quick)',
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
    const large = await largeFileDrop(ctx.quick);
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
        key: 'cold.large_file_healthz_max_ms',
        label: 'longest GET /healthz while a large card file loads (new card)',
        value: large.added.healthzMaxMs,
        unit: 'ms',
        target: { op: '<', value: 250 },
      },
      {
        key: 'cold.large_file_load_s',
        label: 'large card file renamed in to the card listed with all its rows',
        value: large.added.loadMs / 1000,
        unit: 's',
      },
      {
        key: 'cold.large_file_replace_healthz_max_ms',
        label: 'longest GET /healthz while a large card file replaces the rows of its card',
        value: large.replaced.healthzMaxMs,
        unit: 'ms',
      },
      {
        key: 'cold.large_file_replace_load_s',
        label: 'large card file (rows replaced) renamed in to the card listed anew',
        value: large.replaced.loadMs / 1000,
        unit: 's',
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
      `large card file: ${(large.added.bytes / 1e6).toFixed(1)} MB, ${large.added.healthzCount} and ${large.replaced.healthzCount} GET /healthz asked while it loaded (new card, rows replaced), every 10 ms on their own connection, each timed to its last byte`,
    ];
    return { figures, notes };
  },
};
