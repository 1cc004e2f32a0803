/**
 * reattach-replay: how long a client that reattaches to a running conversation turn
 * takes to get 5 000 buffered events back.
 *
 * How: a fresh home, Klebb as a child (`node dist/server/main.js`, production log level,
 * HEALTH_DEBUG off) pointed at the instant gateway in this process, one titled conversation.
 * Each repetition starts a streamed conversation turn (`POST /api/chat` with conversationId and
 * `stream:true`). The gateway writes 4 999 token chunks in one go (as fast as it can) and then
 * holds the final chunk, so the turn's log holds exactly 5 000 events (one `status`, 4 999
 * `token`: the per-turn cap). The first client reads until it has event base+5000 and drops the
 * connection. 20 ms later a second client reattaches with
 * `GET /api/chat/turn/:conversationId?after=<base id>` and the clock runs from sending that
 * request until its eventsource-parser has handed over the 5 000th event (target <= 100 ms).
 * Then the gateway sends the final chunk and the reattached stream must end with `reply` and
 * `done`; the replayed events must be the turn's events, in order, each once.
 * Baselines, interleaved: a bare node:http child serving the same 5 000 SSE events (the bytes
 * the reattached client received) from memory, in one write and in 5 000 writes: the cost of
 * transfer and client-side parsing alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Benchmark } from './lib/bench.js';
import { startChatServer, turnMarker } from './lib/chat.js';
import { expectStatus } from './lib/http.js';
import { type GatewayAnswer, type GatewayCall, startInstantGateway } from './lib/instant-gateway.js';
import { BENCH_TOKEN, type KlebbServer } from './lib/klebb.js';
import { type Child, freePort, spawnNode, waitForOk } from './lib/proc.js';
import { type Figure, progress } from './lib/report.js';
import { eventData, type SseEvent, sseRequest } from './lib/sse-client.js';
import { summarize } from './lib/stats.js';
import { makeTempDir, removeTempDir } from './lib/temp.js';

const EVENTS = 5_000;
const TOKENS = EVENTS - 1; // plus the turn's first `status` event

const BARE_SSE = `
const http = require('node:http');
const text = require('node:fs').readFileSync(process.env.FILE, 'utf8');
const events = text.split(/(?<=\\n\\n)/);
http.createServer((req, res) => {
  if (req.url === '/') { res.end('ok'); return; }
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  if (req.url === '/one') { res.end(text); return; }
  for (const e of events) res.write(e);
  res.end();
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}

function deferred(): Deferred {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function sseText(events: SseEvent[]): string {
  return events.map((e) => `id: ${e.id}\nevent: ${e.type}\ndata: ${e.data}\n\n`).join('');
}

export const reattachReplay: Benchmark = {
  name: 'reattach-replay',
  title: 'Detached turns: reattach and replay 5 000 buffered events',
  async run(ctx) {
    const reps = ctx.quick ? 3 : 10;
    const holds = new Map<string, Deferred>();
    const tokenTexts = Array.from({ length: TOKENS }, (_, k) => `w${k} `);
    const gw = await startInstantGateway((call: GatewayCall): GatewayAnswer => {
      const hold = call.marker ? holds.get(call.marker) : undefined;
      if (!hold) throw new Error(`no replay turn for ${call.marker}`);
      return {
        kind: 'custom',
        async run(w) {
          w.tokens(tokenTexts);
          await hold.promise;
          w.finish();
        },
      };
    });
    const dir = makeTempDir('reattach');
    let server: KlebbServer | undefined;
    let bare: Child | undefined;
    try {
      server = await startChatServer(path.join(dir, 'home'), path.join(dir, 'server.log'), gw, {
        debug: false,
      });
      const srv = server;
      const created = expectStatus(
        await srv.client.request('/api/conversations', {
          json: { title: 'A very long story' },
          token: BENCH_TOKEN,
        }),
        201,
        'create conversation',
      );
      const convId = (JSON.parse(created.body) as { conversation: { id: string } }).conversation.id;

      /** One repetition; returns the replay time and details. */
      const klebbRep = async () => {
        const marker = turnMarker('replay');
        const hold = deferred();
        holds.set(marker, hold);
        let base = Number.NaN;
        let firstLiveAt = Number.NaN;
        let lastLiveAt = Number.NaN;
        const live = await sseRequest(`${srv.url}/api/chat`, {
          json: {
            conversationId: convId,
            messages: [{ role: 'user', content: `Tell me a very long story. ${marker}` }],
            stream: true,
          },
          token: BENCH_TOKEN,
          keep: false,
          onEvent(e) {
            if (Number.isNaN(base)) {
              base = (e.id as number) - 1;
              firstLiveAt = e.at;
            }
            if (e.id === base + EVENTS) {
              lastLiveAt = e.at;
              return 'close';
            }
            return undefined;
          },
        });
        if (!live.closedByUs) {
          hold.resolve();
          throw new Error(
            `the first stream ended before event ${EVENTS}: HTTP ${live.status}, ${live.count} events, ${live.error ?? ''}`,
          );
        }
        await sleep(20);
        let allAt = Number.NaN;
        let n = 0;
        const re = await sseRequest(`${srv.url}/api/chat/turn/${encodeURIComponent(convId)}?after=${base}`, {
          token: BENCH_TOKEN,
          onEvent() {
            if (++n === EVENTS) {
              allAt = performance.now();
              setImmediate(hold.resolve);
            }
            return undefined;
          },
        });
        hold.resolve();
        holds.delete(marker);
        if (re.error || re.status !== 200 || !re.done) {
          throw new Error(
            `reattach failed: HTTP ${re.status}, ${re.count} events, done=${re.done}, ${re.error ?? re.body.slice(0, 200)}`,
          );
        }
        const ev = re.events;
        const bad = ev
          .slice(0, EVENTS)
          .findIndex((e, i) =>
            i === 0
              ? e.type !== 'status' || e.id !== base + 1
              : e.type !== 'token' ||
                e.id !== base + 1 + i ||
                eventData<{ text: string }>(e).text !== tokenTexts[i - 1],
          );
        if (bad >= 0) throw new Error(`replayed event ${bad} is wrong: ${JSON.stringify(ev[bad])}`);
        const tail = ev.slice(EVENTS).map((e) => e.type);
        if (tail.join(',') !== 'reply,done') throw new Error(`after the replay: ${tail.join(',')}`);
        const replayed = ev.slice(0, EVENTS);
        return {
          allMs: allAt - re.startedAt,
          firstMs: ev[0].at - re.startedAt,
          liveMs: lastLiveAt - firstLiveAt,
          replayed,
        };
      };

      const barePort = await freePort();
      const bareUrl = `http://127.0.0.1:${barePort}`;
      const bareRep = async (which: 'one' | 'each') => {
        let allAt = Number.NaN;
        let n = 0;
        const r = await sseRequest(`${bareUrl}/${which}`, {
          keep: false,
          onEvent() {
            if (++n === EVENTS) allAt = performance.now();
            return undefined;
          },
        });
        if (r.error || r.count !== EVENTS)
          throw new Error(`bare ${which}: ${r.count} events ${r.error ?? ''}`);
        return allAt - r.startedAt;
      };

      progress(`reattach-replay: 1 warm-up + ${reps} repetitions of a 5 000-event turn`);
      const warm = await klebbRep();
      const file = path.join(dir, 'replay.sse');
      const text = sseText(warm.replayed);
      fs.writeFileSync(file, text);
      bare = spawnNode(['-e', BARE_SSE], {
        env: { PORT: String(barePort), FILE: file },
        logFile: path.join(dir, 'bare.log'),
      });
      await waitForOk(`${bareUrl}/`, bare);
      await bareRep('one');
      await bareRep('each');

      const all: number[] = [];
      const first: number[] = [];
      const liveMs: number[] = [];
      const bareOne: number[] = [];
      const bareEach: number[] = [];
      for (let i = 0; i < reps; i++) {
        const r = await klebbRep();
        all.push(r.allMs);
        first.push(r.firstMs);
        liveMs.push(r.liveMs);
        bareOne.push(await bareRep('one'));
        bareEach.push(await bareRep('each'));
      }
      const s = summarize(all);
      const figures: Figure[] = [
        {
          key: 'replay.all_median_ms',
          label: `reattach to all ${EVENTS} events, median`,
          value: s.median,
          unit: 'ms',
          target: { op: '<=', value: 100 },
        },
        {
          key: 'replay.all_max_ms',
          label: `reattach to all ${EVENTS} events, max of ${reps}`,
          value: s.max,
          unit: 'ms',
          target: { op: '<=', value: 100 },
        },
        {
          key: 'replay.all_min_ms',
          label: `reattach to all ${EVENTS} events, min`,
          value: s.min,
          unit: 'ms',
        },
        {
          key: 'replay.first_event_ms',
          label: 'reattach to first replayed event, median',
          value: summarize(first).median,
          unit: 'ms',
        },
        {
          key: 'replay.bytes_kib',
          label: 'replayed SSE bytes',
          value: Buffer.byteLength(text) / 1024,
          unit: 'KiB',
        },
        {
          key: 'replay.live_5000_ms',
          label: `first client: 1st to ${EVENTS}th event live (gateway writes all at once)`,
          value: summarize(liveMs).median,
          unit: 'ms',
        },
        {
          key: 'replay.baseline_bare_one_ms',
          label: 'baseline: bare node, same events in one write, median',
          value: summarize(bareOne).median,
          unit: 'ms',
        },
        {
          key: 'replay.baseline_bare_each_ms',
          label: 'baseline: bare node, same events in 5 000 writes, median',
          value: summarize(bareEach).median,
          unit: 'ms',
        },
      ];
      const notes = [
        `${reps} repetitions (after 1 warm-up), each a new turn on the same conversation; events = 1 status + ${TOKENS} tokens (the cap), reattach with ?after=<base id> on a new connection 20 ms after the first client left`,
        `all replay times: ${all.map((v) => v.toFixed(1)).join(', ')} ms`,
      ];
      return { figures, notes };
    } finally {
      for (const h of holds.values()) h.resolve();
      await bare?.stop();
      await server?.stop();
      await gw.close();
      removeTempDir(dir);
    }
  },
};
