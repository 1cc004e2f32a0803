/**
 * chat-relay: how long a token chunk takes from the gateway to the client's SSE stream.
 *
 * How: the instant gateway runs in this process, so the time it writes a chunk and the time the
 * client's eventsource-parser hands over the matching `token` event share one clock
 * (performance.now()). Klebb runs as a child (`node dist/server/main.js`, fresh home, production log
 * level, HEALTH_DEBUG off); the client is a streaming `POST /api/chat` (`stream:true`) on a fresh
 * connection. Each turn is one gateway call that streams 250 token chunks (`t<k> `), each its
 * own write, then finishes; 8 measured turns per kind (2 000 tokens, so one stall of the shared
 * machine cannot fill the 1 % tail alone). Two pacings:
 * - ping-pong: chunk k+1 is written 1 ms after the client got token k (nothing queued: the pure
 *   relay latency);
 * - paced: a chunk every 5 ms whatever the client does (a fast model's rate).
 * Latency per token = client receive time - gateway write time (stamped just before write()).
 * Baselines, same pacings: a bare node:http child relaying the gateway's deltas as `token`
 * events (two hops and two processes like Klebb, same parser, nothing else: on a shared machine
 * its tail shows what scheduling alone costs), and the client streaming straight from the gateway
 * (one hop, one process). Turns of the six kinds are interleaved one by one. Every token must
 * arrive once and in order, and the reply must be their concatenation.
 */
import os from 'node:os';
import path from 'node:path';
import { type BareRelay, startBareSseRelay } from './lib/bare-relay.js';
import type { Benchmark } from './lib/bench.js';
import { pushTo, startChatServer, turnMarker } from './lib/chat.js';
import {
  type ChunkWriter,
  type GatewayAnswer,
  type GatewayCall,
  startInstantGateway,
} from './lib/instant-gateway.js';
import { interleave, type Participant } from './lib/interleave.js';
import { BENCH_TOKEN, type KlebbServer, repoRoot } from './lib/klebb.js';
import { type Figure, progress } from './lib/report.js';
import { eventData, type SseEvent, sseRequest } from './lib/sse-client.js';
import { summarize } from './lib/stats.js';
import { makeTempDir, removeTempDir } from './lib/temp.js';

const PACE_MS = 5;
const PINGPONG_GAP_MS = 1;

type Mode = 'pingpong' | 'paced';
type Via = 'klebb' | 'bare' | 'direct';

interface RelayTurn {
  mode: Mode;
  tokens: number;
  writeAt: number[];
  recvAt: number[];
  writer?: ChunkWriter;
  /** Index of the next token to write. */
  next: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export const chatRelay: Benchmark = {
  name: 'chat-relay',
  title: 'Chat: relay latency of a token chunk, gateway write to client SSE event',
  async run(ctx) {
    const tokens = ctx.quick ? 100 : 250;
    const warmup = 1;
    const count = ctx.quick ? 2 : 8;
    const turns = new Map<string, RelayTurn>();

    const writeNext = (t: RelayTurn) => {
      const w = t.writer;
      if (!w || w.closed) return;
      if (t.next >= t.tokens) {
        w.finish();
        return;
      }
      const k = t.next++;
      t.writeAt[k] = w.token(`t${k} `);
    };
    const gw = await startInstantGateway((call: GatewayCall): GatewayAnswer => {
      const t = call.marker ? turns.get(call.marker) : undefined;
      if (!t) throw new Error(`no relay turn for marker ${call.marker}`);
      return {
        kind: 'custom',
        async run(w) {
          t.writer = w;
          if (t.mode === 'pingpong') {
            writeNext(t);
            return;
          }
          while (!w.closed && t.next < t.tokens) {
            writeNext(t);
            await sleep(PACE_MS);
          }
          w.finish();
        },
      };
    });
    const dir = makeTempDir('chat-relay');
    let server: KlebbServer | undefined;
    let relay: BareRelay | undefined;
    try {
      server = await startChatServer(path.join(dir, 'home'), path.join(dir, 'server.log'), gw, {
        debug: false,
      });
      const samples = new Map<string, number[]>();

      relay = await startBareSseRelay(gw.url, dir, repoRoot);
      const bare = relay;

      const oneTurn = async (name: string, via: Via, mode: Mode, record: boolean): Promise<number> => {
        const marker = turnMarker(`relay_${via}_${mode}`);
        const t: RelayTurn = { mode, tokens, writeAt: [], recvAt: [], next: 0 };
        turns.set(marker, t);
        const tokenIndex = (e: SseEvent): number | undefined => {
          let text: string | undefined;
          if (via !== 'direct') {
            if (e.type !== 'token') return undefined;
            text = eventData<{ text: string }>(e).text;
          } else {
            if (!e.data.startsWith('{')) return undefined;
            const c = JSON.parse(e.data) as { choices?: { delta?: { content?: string } }[] };
            text = c.choices?.[0]?.delta?.content;
          }
          const m = text ? /^t(\d+) $/.exec(text) : null;
          return m ? Number(m[1]) : undefined;
        };
        let duplicate: number | undefined;
        const onEvent = (e: SseEvent): undefined => {
          const k = tokenIndex(e);
          if (k === undefined) return undefined;
          if (t.recvAt[k] !== undefined) duplicate ??= k;
          t.recvAt[k] = e.at;
          if (mode === 'pingpong') setTimeout(() => writeNext(t), PINGPONG_GAP_MS);
          return undefined;
        };
        const r =
          via === 'klebb'
            ? await sseRequest(`${server?.url}/api/chat`, {
                json: {
                  messages: [{ role: 'user', content: `Tell me a long story. ${marker}` }],
                  stream: true,
                },
                token: BENCH_TOKEN,
                onEvent,
              })
            : via === 'bare'
              ? await sseRequest(bare.url, { json: { marker }, onEvent })
              : await sseRequest(gw.url, {
                  json: { model: 'direct', messages: [{ role: 'user', content: marker }], stream: true },
                  onEvent,
                });
        turns.delete(marker);
        if (duplicate !== undefined) throw new Error(`${name}: token ${duplicate} arrived twice`);
        if (r.error || r.status !== 200)
          throw new Error(`${name}: HTTP ${r.status} ${r.error ?? r.body.slice(0, 300)}`);
        if (via === 'klebb') {
          if (!r.done) throw new Error(`${name}: no done event`);
          const reply = r.events.find((e) => e.type === 'reply');
          const want = Array.from({ length: tokens }, (_, k) => `t${k} `)
            .join('')
            .trim();
          if (!reply || eventData<{ reply: string }>(reply).reply !== want)
            throw new Error(`${name}: wrong reply`);
        }
        const lat: number[] = [];
        for (let k = 0; k < tokens; k++) {
          if (t.recvAt[k] === undefined || t.writeAt[k] === undefined)
            throw new Error(`${name}: token ${k} missing`);
          lat.push(t.recvAt[k] - t.writeAt[k]);
        }
        if (record) for (const v of lat) pushTo(samples, name, v);
        return summarize(lat).median;
      };

      const seen = new Map<string, number>();
      const P = (name: string, via: Via, mode: Mode): Participant => ({
        name,
        op: () => {
          const n = (seen.get(name) ?? 0) + 1;
          seen.set(name, n);
          return oneTurn(name, via, mode, n > warmup);
        },
      });
      const participants = [
        P('via Klebb, ping-pong', 'klebb', 'pingpong'),
        P('via Klebb, paced 5 ms', 'klebb', 'paced'),
        P('baseline bare node relay, ping-pong', 'bare', 'pingpong'),
        P('baseline bare node relay, paced 5 ms', 'bare', 'paced'),
        P('baseline direct, ping-pong', 'direct', 'pingpong'),
        P('baseline direct, paced 5 ms', 'direct', 'paced'),
      ];
      progress(
        `chat-relay: ${warmup} warm-up + ${count} measured turns of ${tokens} tokens per kind, interleaved turn by turn`,
      );
      await interleave(participants, { warmup, count, block: 1 });

      const figures: Figure[] = [];
      for (const p of participants) {
        const s = summarize(samples.get(p.name) ?? []);
        const key = `relay.${p.name.replace(/[^a-z0-9]+/gi, '_').replace(/_+$/, '')}`;
        const klebb = p.name.startsWith('via');
        figures.push(
          { key: `${key}.p50_ms`, label: `${p.name}: p50`, value: s.median, unit: 'ms' },
          { key: `${key}.p95_ms`, label: `${p.name}: p95`, value: s.p95, unit: 'ms' },
          {
            key: `${key}.p99_ms`,
            label: `${p.name}: p99`,
            value: s.p99,
            unit: 'ms',
            target: klebb ? { op: '<=', value: 5 } : undefined,
          },
          { key: `${key}.max_ms`, label: `${p.name}: max`, value: s.max, unit: 'ms' },
        );
        if (klebb)
          figures.push({ key: `${key}.tokens`, label: `${p.name}: tokens measured`, value: s.n, unit: '' });
      }
      const p50 = (name: string) => summarize(samples.get(name) ?? []).median;
      figures.push({
        key: 'relay.klebb_over_bare_pingpong_p50_ms',
        label: 'ping-pong: p50 via Klebb - p50 via the bare relay',
        value: p50('via Klebb, ping-pong') - p50('baseline bare node relay, ping-pong'),
        unit: 'ms',
      });
      const notes = [
        `${count} measured turns x ${tokens} tokens per kind (after ${warmup} warm-up turn), one gateway call per turn, each chunk its own write; ping-pong gap ${PINGPONG_GAP_MS} ms, paced every ${PACE_MS} ms`,
        'latency = client event time - gateway write time, one process, one clock (performance.now()); fresh home, HEALTH_DEBUG off, a new connection per turn',
        `load average at the end of this benchmark: ${os.loadavg()[0].toFixed(2)} (${os.cpus().length} CPUs)`,
      ];
      return { figures, notes };
    } finally {
      await server?.stop();
      await relay?.stop();
      await gw.close();
      removeTempDir(dir);
    }
  },
};
