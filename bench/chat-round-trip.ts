/**
 * chat-round-trip: server time per gateway round-trip of a chat turn, against a gateway
 * that answers at once, on the 200-card home (200 x 10 000 rows, the cold-start fixture seeded
 * through the store; 20 x 1 000 with --quick).
 *
 * How: the instant gateway (lib/instant-gateway.ts) runs in this process; two Klebb children
 * (`node dist/server/main.js`, production log level) on the same home point at it, one with
 * HEALTH_DEBUG=1 and one with HEALTH_DEBUG=0. A turn is one `POST /api/chat` whose gateway
 * script makes 9 tool-call round-trips and answers on the 10th (10 gateway calls). Per turn,
 *   server time per round-trip = (client wall time of the turn - sum of the gateway's own time
 *   per call) / 10,
 * where the gateway's own time runs from its `request` event to its response's `finish`. What
 * remains is Klebb: building the prompt, the request body (JSON) for each call, a new TCP
 * connection per call, reading the reply, the tool dispatch, and the client's HTTP exchange
 * (one per turn). Variants, interleaved in blocks of 10 (lib/interleave.ts):
 * - `meta`: each tool call is `read_manifest_meta` on a real card (cards 1..9, a stat per call);
 * - `fail`: each tool call is `read_manifest_meta` on an unknown id (404 in the tool at once):
 *   the closest to "excluding tool work";
 * - both buffered, with and without HEALTH_DEBUG, plus `fail` streamed (stream:true, SSE status
 *   events, the gateway answering SSE) with HEALTH_DEBUG on;
 * - `answer1`: a turn that answers on its first call, for the fixed per-turn cost; the marginal
 *   cost of one more round-trip is (median fail10 turn - median answer1 turn) / 9;
 * - baseline `GET /healthz` on the debug server's socket.
 */

import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type BareRelay, startBareRelay } from './lib/bare-relay.js';
import { healthzProbe } from './lib/baseline.js';
import type { Benchmark } from './lib/bench.js';
import { chatBuffered, markerKind, pushTo, startChatServer, turnMarker } from './lib/chat.js';
import { cardsHome } from './lib/fixtures.js';
import { expectStatus } from './lib/http.js';
import {
  type GatewayAnswer,
  type GatewayCall,
  gatewayMs,
  startInstantGateway,
} from './lib/instant-gateway.js';
import { interleave, type Participant } from './lib/interleave.js';
import { BENCH_TOKEN, type KlebbServer } from './lib/klebb.js';
import { type Figure, progress } from './lib/report.js';
import { eventData, sseRequest } from './lib/sse-client.js';
import { summarize } from './lib/stats.js';

const ROUND_TRIPS = 10;
const REPLY = 'All nine cards look fine.';

/** Kind `<tool>_<round-trips>`: tool `meta` (real card), `fail` (unknown card) or `answer` (none). */
function parseKind(kind: string | undefined): { tool: string; rts: number } {
  const m = kind ? /^(meta|fail|answer|bare)_(\d+)$/.exec(kind) : null;
  if (!m) throw new Error(`unexpected turn marker kind ${kind}`);
  return { tool: m[1], rts: Number(m[2]) };
}

export const chatRoundTrip: Benchmark = {
  name: 'chat-round-trip',
  title: 'Chat: server time per gateway round-trip, turns of 10 round-trips, 200 cards (20 with --quick)',
  async run(ctx) {
    const fx = await cardsHome(ctx);
    const cardIds = Array.from({ length: fx.cards }, (_, i) => `weight-${String(i + 1).padStart(3, '0')}`);
    const lastRaw = new Map<string, string>();
    const bytesAtCall = new Map<number, number[]>();
    const gw = await startInstantGateway((call: GatewayCall): GatewayAnswer => {
      const kind = markerKind(call.marker) as string;
      const { tool, rts } = parseKind(kind);
      lastRaw.set(kind, call.raw);
      const nth = call.toolResults + 1;
      if (tool === 'meta' || tool === 'fail') {
        pushTo(bytesAtCall, nth, Buffer.byteLength(call.raw), 50);
      }
      if ((tool === 'meta' || tool === 'fail') && call.toolResults < rts - 1) {
        const id =
          tool === 'meta' ? cardIds[call.toolResults % cardIds.length] : `no-such-card-${call.toolResults}`;
        return { kind: 'tools', calls: [{ name: 'read_manifest_meta', arguments: { id } }] };
      }
      return { kind: 'text', text: REPLY };
    });
    const servers: KlebbServer[] = [];
    const relays: BareRelay[] = [];
    const streamAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const debugOn = await startChatServer(fx.home, path.join(fx.dir, 'chat-rt-debug.log'), gw, {
        debug: true,
      });
      servers.push(debugOn);
      const debugOff = await startChatServer(fx.home, path.join(fx.dir, 'chat-rt-nodebug.log'), gw, {
        debug: false,
      });
      servers.push(debugOff);

      const turnServerMs = new Map<string, number[]>();
      const turnWallMs = new Map<string, number[]>();
      const gwPerCall: number[] = [];
      const warmup = ctx.quick ? 5 : 20;
      const count = ctx.quick ? 30 : 200;
      /** Turns made per variant: the first `warmup` are not kept in the side tables. */
      const seen = new Map<string, number>();

      /** One turn; resolves to the server time per round-trip. */
      const turn = async (
        name: string,
        server: KlebbServer | BareRelay,
        kind: string,
        stream: boolean,
      ): Promise<number> => {
        const { tool, rts } = parseKind(kind);
        const marker = turnMarker(kind);
        gw.take();
        const body = {
          messages: [{ role: 'user', content: `Check my cards one by one. ${marker}` }],
          stream,
        };
        let wall: number;
        if (tool === 'bare') {
          wall = expectStatus(
            await server.client.request('/', { json: { marker, n: rts } }),
            200,
            'bare relay',
          ).ms;
        } else if (!stream) {
          const r = await chatBuffered(server.client, body);
          wall = r.ms;
          const reply = (JSON.parse(r.body) as { reply?: string }).reply;
          if (reply !== REPLY) throw new Error(`${name}: unexpected reply ${r.body.slice(0, 300)}`);
        } else {
          const r = await sseRequest(`${server.url}/api/chat`, {
            json: body,
            token: BENCH_TOKEN,
            agent: streamAgent,
          });
          if (r.error || r.status !== 200 || !r.done) {
            throw new Error(
              `${name}: stream failed (HTTP ${r.status}, done=${r.done}): ${r.error ?? r.body.slice(0, 300)}`,
            );
          }
          const replyEv = r.events.find((e) => e.type === 'reply');
          if (!replyEv || eventData<{ reply: string }>(replyEv).reply !== REPLY)
            throw new Error(`${name}: no or wrong reply event`);
          wall = r.endedAt - r.startedAt;
        }
        await gw.settled();
        const recs = gw.take();
        if (recs.length !== rts || recs.some((x) => x.marker !== marker)) {
          throw new Error(`${name}: expected ${rts} gateway calls for ${marker}, got ${recs.length}`);
        }
        const g = gatewayMs(recs);
        const serverMs = wall - g;
        const nth = (seen.get(name) ?? 0) + 1;
        seen.set(name, nth);
        if (nth > warmup && name !== 'check') {
          for (const x of recs) gwPerCall.push(x.ms);
          pushTo(turnServerMs, name, serverMs);
          pushTo(turnWallMs, name, wall);
        }
        return serverMs / rts;
      };

      // check once that the tools did what the variants claim
      for (const kind of [`meta_${ROUND_TRIPS}`, `fail_${ROUND_TRIPS}`]) {
        await turn('check', debugOn, kind, false);
        const raw = lastRaw.get(kind) ?? '';
        const want = kind.startsWith('meta') ? '\\"meta\\":' : 'CARD_NOT_FOUND';
        const toolMsgs = (
          JSON.parse(raw) as { messages: { role: string; content: string }[] }
        ).messages.filter((m) => m.role === 'tool');
        if (
          toolMsgs.length !== ROUND_TRIPS - 1 ||
          !toolMsgs.every((m) => JSON.stringify(m.content).includes(want))
        ) {
          throw new Error(`${kind}: the tool results are not what the variant expects: ${raw.slice(-400)}`);
        }
      }

      // the floors: a bare node relay making as many calls with a body of the first call's size
      const firstBytes = Math.round(summarize(bytesAtCall.get(1) ?? [32_768]).median);
      const bareClose = await startBareRelay(gw.url, fx.dir, { keepAlive: false, bodyBytes: firstBytes });
      relays.push(bareClose);
      const bareKeep = await startBareRelay(gw.url, fx.dir, { keepAlive: true, bodyBytes: firstBytes });
      relays.push(bareKeep);

      const P = (
        name: string,
        server: KlebbServer | BareRelay,
        kind: string,
        stream = false,
      ): Participant => ({
        name,
        op: () => turn(name, server, kind, stream),
      });
      const participants: Participant[] = [
        P('meta10 buffered, debug on', debugOn, `meta_${ROUND_TRIPS}`),
        P('fail10 buffered, debug on', debugOn, `fail_${ROUND_TRIPS}`),
        P('meta10 buffered, debug off', debugOff, `meta_${ROUND_TRIPS}`),
        P('fail10 buffered, debug off', debugOff, `fail_${ROUND_TRIPS}`),
        P('fail10 streamed, debug on', debugOn, `fail_${ROUND_TRIPS}`, true),
        P('answer1 buffered, debug on', debugOn, 'answer_1'),
        P('baseline: bare node relay, new connection per call', bareClose, `bare_${ROUND_TRIPS}`),
        P('baseline: bare node relay, keep-alive', bareKeep, `bare_${ROUND_TRIPS}`),
        healthzProbe(debugOn.client),
      ];
      progress(
        `chat-round-trip: ${warmup} warm-up + ${count} measured turns per variant, interleaved in blocks of 10`,
      );
      const t0 = performance.now();
      const results = await interleave(participants, {
        warmup,
        count,
        block: 10,
        onRound: (d, total) => {
          if (d % 50 === 0) progress(`  ${d}/${total} measured turns per variant`);
        },
      });
      progress(`chat-round-trip: measured in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

      const figures: Figure[] = [];
      for (const p of participants) {
        if (p.name === 'healthz') continue;
        const r = results.get(p.name);
        if (!r) throw new Error(`missing ${p.name}`);
        const key = `chat_rt.${p.name.replace(/[^a-z0-9]+/gi, '_').replace(/_+$/, '')}`;
        const per = p.name.startsWith('answer1') ? 'per turn (1 round-trip)' : 'per round-trip';
        const klebb10 = !p.name.startsWith('answer1') && !p.name.startsWith('baseline');
        figures.push(
          {
            key: `${key}.median_ms`,
            label: `${p.name}: ${p.name.startsWith('baseline') ? 'relay' : 'server'} ms ${per}, median`,
            value: r.latency.median,
            unit: 'ms',
            target: klebb10 ? { op: '<', value: 2 } : undefined,
          },
          {
            key: `${key}.p95_ms`,
            label: `${p.name}: ${p.name.startsWith('baseline') ? 'relay' : 'server'} ms ${per}, p95`,
            value: r.latency.p95,
            unit: 'ms',
          },
        );
      }
      const med = (name: string) => summarize(turnServerMs.get(name) ?? []).median;
      const fixed = med('answer1 buffered, debug on');
      const fail10 = med('fail10 buffered, debug on');
      figures.push(
        {
          key: 'chat_rt.marginal_round_trip_ms',
          label: '(median fail10 turn - median answer1 turn) / 9: one more round-trip',
          value: (fail10 - fixed) / (ROUND_TRIPS - 1),
          unit: 'ms',
        },
        {
          key: 'chat_rt.turn_wall_meta10_ms',
          label: 'meta10 buffered, debug on: client wall time per turn, median',
          value: summarize(turnWallMs.get('meta10 buffered, debug on') ?? []).median,
          unit: 'ms',
        },
        {
          key: 'chat_rt.gateway_call_ms',
          label: 'gateway own time per call (subtracted), median',
          value: summarize(gwPerCall).median,
          unit: 'ms',
        },
        {
          key: 'chat_rt.request_first_kib',
          label: 'gateway request body, 1st call of a turn',
          value: summarize(bytesAtCall.get(1) ?? []).median / 1024,
          unit: 'KiB',
        },
        {
          key: 'chat_rt.request_last_kib',
          label: `gateway request body, ${ROUND_TRIPS}th call of a meta10 turn`,
          value: Math.max(...(bytesAtCall.get(ROUND_TRIPS) ?? [Number.NaN])) / 1024,
          unit: 'KiB',
        },
        {
          key: 'chat_rt.baseline_healthz_ms',
          label: 'baseline GET /healthz, median',
          value: results.get('healthz')?.latency.median ?? Number.NaN,
          unit: 'ms',
        },
      );
      const notes = [
        `${fx.cards} cards; a turn = ${ROUND_TRIPS} gateway calls (${ROUND_TRIPS - 1} read_manifest_meta tool calls, then the answer); server ms per round-trip = (client wall - gateway own time) / ${ROUND_TRIPS}`,
        `${warmup} warm-up + ${count} measured turns per variant, interleaved in blocks of 10; buffered turns on one keep-alive socket; log level of the servers as configured (BENCH_LOG_LEVEL)`,
        'includes per call: JSON body build, a fresh TCP connection (the client sends Connection: close), reply parsing, the tool; per turn: prompt build, the client HTTP exchange',
        `baselines: a bare node:http child making ${ROUND_TRIPS} sequential gateway calls per request with a ${(firstBytes / 1024).toFixed(1)} KiB body (the 1st Klebb call's size), once with a new connection per call and once keep-alive: the floor of two processes and loopback TCP`,
      ];
      return { figures, notes };
    } finally {
      streamAgent.destroy();
      for (const s of servers) await s.stop();
      for (const r of relays) await r.stop();
      await gw.close();
    }
  },
};
