/**
 * static-assets: how fast the server hands out the built web app (dist/web), and how many bytes
 * it sends for it.
 *
 * How: one real server (`node dist/server/main.js`, 127.0.0.1) on a fresh home; one keep-alive
 * connection; requests one at a time, interleaved in blocks (lib/interleave.ts) so that load
 * drifting on the shared machine falls on every participant alike:
 * - the largest JS file under /assets, asked with `Accept-Encoding: br` (what a current browser
 *   gets), with `gzip` only, and with no Accept-Encoding (identity);
 * - the page (`GET /` as a browser asks for it, br accepted);
 * - the floor: `GET /healthz`, a route that does nothing, on the same connection.
 * Figures: requests per second for each, the ratio of each to the floor, and the body bytes
 * received per request (what goes over the wire), next to the file's size on disk.
 * `--quick`: fewer requests.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Benchmark } from './lib/bench.js';
import { interleave, type Participant } from './lib/interleave.js';
import { repoRoot, startKlebb } from './lib/klebb.js';
import { type Figure, progress } from './lib/report.js';
import { round } from './lib/stats.js';
import { makeTempDir } from './lib/temp.js';

/** One GET on `agent`; resolves to the time to the last byte and the body bytes received. */
function get(
  agent: http.Agent,
  url: string,
  headers: Record<string, string>,
): Promise<{ ms: number; bytes: number; status: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.get(url, { agent, headers }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
      });
      res.on('end', () =>
        resolve({
          ms: performance.now() - t0,
          bytes,
          status: res.statusCode ?? 0,
          encoding: String(res.headers['content-encoding'] ?? 'identity'),
        }),
      );
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout: ${url}`)));
    req.on('error', reject);
  });
}

/** The largest .js file under dist/web/assets (the app's main chunk). @throws when not built. */
function largestScript(webDir: string): { name: string; size: number } {
  const dir = path.join(webDir, 'assets');
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((name) => ({ name, size: fs.statSync(path.join(dir, name)).size }))
    .sort((a, b) => b.size - a.size);
  if (!files.length) throw new Error('dist/web/assets has no .js file: run npm run build');
  return files[0];
}

export const staticAssets: Benchmark = {
  name: 'static-assets',
  title: 'Static files of the web app: requests per second and bytes sent, by Accept-Encoding',
  async run(ctx) {
    const webDir = path.join(repoRoot, 'dist/web');
    const script = largestScript(webDir);
    const home = makeTempDir('static');
    const server = await startKlebb(home, path.join(home, 'server.log'));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const bytes = new Map<string, { bytes: number; encoding: string }>();
    const participant = (name: string, url: string, headers: Record<string, string>): Participant => ({
      name,
      async op() {
        const r = await get(agent, `${server.url}${url}`, headers);
        if (r.status !== 200) throw new Error(`${name}: ${url} answered ${r.status}`);
        bytes.set(name, { bytes: r.bytes, encoding: r.encoding });
        return r.ms;
      },
    });
    const asset = `/assets/${script.name}`;
    const page = { accept: 'text/html,application/xhtml+xml', 'accept-encoding': 'gzip, deflate, br, zstd' };
    const participants = [
      participant('asset-br', asset, { 'accept-encoding': 'gzip, deflate, br, zstd' }),
      participant('asset-gzip', asset, { 'accept-encoding': 'gzip' }),
      participant('asset-identity', asset, {}),
      participant('page-br', '/', page),
      participant('healthz', '/healthz', {}),
    ];
    try {
      const count = ctx.quick ? 200 : 3000;
      const results = await interleave(participants, {
        warmup: ctx.quick ? 20 : 300,
        count,
        block: 50,
        onRound: (done, total) => {
          if (done % 1000 === 0 || done === total)
            progress(`static-assets: ${done}/${total} per participant`);
        },
      });
      const floor = results.get('healthz')?.perSecond ?? Number.NaN;
      const figures: Figure[] = [];
      for (const p of participants) {
        const r = results.get(p.name);
        if (!r) continue;
        figures.push({
          key: `${p.name}_rps`,
          label: `${p.name}: requests/s`,
          value: round(r.perSecond, 1),
          unit: '/s',
        });
        figures.push({
          key: `${p.name}_p50_ms`,
          label: `${p.name}: median`,
          value: round(r.latency.median, 3),
          unit: 'ms',
        });
        if (p.name === 'healthz') continue;
        figures.push({
          key: `${p.name}_vs_floor`,
          label: `${p.name}: share of the floor's rate`,
          value: round(r.perSecond / floor, 3),
          unit: 'x',
        });
        const b = bytes.get(p.name);
        figures.push({
          key: `${p.name}_bytes`,
          label: `${p.name}: body bytes sent (${b?.encoding ?? '?'})`,
          value: b?.bytes ?? Number.NaN,
          unit: 'B',
        });
      }
      return {
        figures,
        notes: [
          `asset: ${asset}, ${script.size} bytes on disk`,
          `${count} requests per participant, one keep-alive connection, one request at a time, interleaved blocks of 50`,
          'floor: GET /healthz on the same connection (a route that does nothing)',
        ],
      };
    } finally {
      agent.destroy();
      await server.stop();
    }
  },
};
