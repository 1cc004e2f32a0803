/**
 * chat-concurrency: 50 streaming chat turns at once on this 2-core machine, on the
 * 200-card home (20 cards and 10 turns with --quick).
 *
 * How: the instant gateway in this process, Klebb as a child (`node dist/server/main.js`, production
 * log level, HEALTH_DEBUG off). 50 clients each open a `POST /api/chat` with `stream:true` (a new
 * connection each, read with eventsource-parser) at the same moment. Each turn makes 3 gateway
 * calls: (1) a few streamed words then a `read_manifest_meta` tool call (so the client sees a
 * `reset`), (2) another `read_manifest_meta`, (3) the answer streamed as 30 token chunks. Two
 * gateway behaviours, alternated round by round:
 * - instant: each reply written in one go, as fast as possible (the stress case);
 * - paced: 20 ms before the first chunk and 3 ms between chunks (closer to a real model).
 * A turn counts as an error when its HTTP status is not 200, the connection fails, an `error`
 * event arrives, its reply is not the scripted text, or the tokens after its last `reset` do not
 * add up to the reply; as incomplete when no `done` arrives. The gateway must see exactly 3 calls
 * per turn. Turn time is from sending the request to the `done` event; wall time is from the
 * first request to the last `done`. Baseline: the same turn alone, sequentially (median).
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Benchmark } from './lib/bench.js';
import { markerKind, startChatServer, turnMarker } from './lib/chat.js';
import { cardsHome } from './lib/fixtures.js';
import { type GatewayAnswer, type GatewayCall, startInstantGateway } from './lib/instant-gateway.js';
import { BENCH_TOKEN, type KlebbServer } from './lib/klebb.js';
import { procStatusMB } from './lib/proc.js';
import { type Figure, progress } from './lib/report.js';
import { eventData, type SseResult, sseRequest } from './lib/sse-client.js';
import { summarize } from './lib/stats.js';

const ANSWER_TOKENS = Array.from({ length: 30 }, (_, i) => `word${i} `);
const ANSWER = ANSWER_TOKENS.join('').trim();
const PREAMBLE = ['Let ', 'me ', 'check ', 'that.'];
const TTFB_MS = 20;
const GAP_MS = 3;

type Pace = 'instant' | 'paced';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface TurnOutcome {
  ms: number;
  error?: string;
  incomplete: boolean;
}

/** Checks one finished stream; returns the error text, if any. */
function judge(r: SseResult): string | undefined {
  if (r.error) return `connection: ${r.error}`;
  if (r.status !== 200) return `HTTP ${r.status}: ${r.body.slice(0, 200)}`;
  const err = r.events.find((e) => e.type === 'error');
  if (err) return `error event: ${err.data.slice(0, 200)}`;
  const reply = r.events.find((e) => e.type === 'reply');
  if (!reply) return r.done ? 'no reply event' : undefined;
  if (eventData<{ reply: string }>(reply).reply !== ANSWER) return `wrong reply: ${reply.data.slice(0, 200)}`;
  let lastReset = -1;
  r.events.forEach((e, i) => {
    if (e.type === 'reset') lastReset = i;
  });
  const streamed = r.events
    .slice(lastReset + 1)
    .filter((e) => e.type === 'token')
    .map((e) => eventData<{ text: string }>(e).text)
    .join('');
  if (streamed.trim() !== ANSWER)
    return `streamed tokens do not add up to the reply (${streamed.length} chars)`;
  if (lastReset < 0) return 'no reset event after the preamble';
  return undefined;
}

export const chatConcurrency: Benchmark = {
  name: 'chat-concurrency',
  title: 'Chat: 50 concurrent streaming turns of 3 round-trips (10 with --quick)',
  async run(ctx) {
    const fx = await cardsHome(ctx);
    const concurrency = ctx.quick ? 10 : 50;
    const rounds = ctx.quick ? 1 : 3;
    const aloneCount = ctx.quick ? 5 : 20;
    const callsPerMarker = new Map<string, number>();
    const gw = await startInstantGateway((call: GatewayCall): GatewayAnswer => {
      const marker = call.marker as string;
      callsPerMarker.set(marker, (callsPerMarker.get(marker) ?? 0) + 1);
      const pace = markerKind(marker) as Pace;
      const step = call.toolResults; // 0, 1: tool calls; 2: the answer
      const card = `weight-${String(((marker.length + step) % fx.cards) + 1).padStart(3, '0')}`;
      const calls = [{ name: 'read_manifest_meta', arguments: { id: card } }];
      if (pace === 'instant') {
        if (step === 0) return { kind: 'tools', calls, text: PREAMBLE.join('') };
        if (step === 1) return { kind: 'tools', calls };
        return { kind: 'text', text: ANSWER, chunks: ANSWER_TOKENS };
      }
      return {
        kind: 'custom',
        async run(w) {
          await sleep(TTFB_MS);
          const texts = step === 0 ? PREAMBLE : step === 1 ? [] : ANSWER_TOKENS;
          for (const t of texts) {
            if (w.closed) return;
            w.token(t);
            await sleep(GAP_MS);
          }
          if (step < 2) {
            w.toolCalls(calls);
            w.finish('tool_calls');
          } else w.finish('stop');
        },
      };
    });
    let server: KlebbServer | undefined;
    try {
      server = await startChatServer(fx.home, path.join(fx.dir, 'chat-concurrency.log'), gw, {
        debug: false,
      });
      const url = `${server.url}/api/chat`;

      const runTurn = async (pace: Pace): Promise<TurnOutcome> => {
        const marker = turnMarker(pace);
        const r = await sseRequest(url, {
          json: { messages: [{ role: 'user', content: `How are my cards doing? ${marker}` }], stream: true },
          token: BENCH_TOKEN,
          timeoutMs: 300_000,
        });
        const calls = callsPerMarker.get(marker) ?? 0;
        callsPerMarker.delete(marker);
        let error = judge(r);
        if (!error && r.done && calls !== 3) error = `the gateway saw ${calls} calls, expected 3`;
        const doneEv = r.events.find((e) => e.type === 'done');
        return { ms: (doneEv?.at ?? r.endedAt) - r.startedAt, error, incomplete: !r.done };
      };

      // baseline: one turn at a time (after a few warm-up turns)
      for (let i = 0; i < 3; i++) {
        await runTurn('instant');
        await runTurn('paced');
      }
      const alone = { instant: [] as number[], paced: [] as number[] };
      for (let i = 0; i < aloneCount; i++) {
        for (const pace of ['instant', 'paced'] as const) {
          const o = await runTurn(pace);
          if (o.error || o.incomplete)
            throw new Error(`a single ${pace} turn failed: ${o.error ?? 'incomplete'}`);
          alone[pace].push(o.ms);
        }
      }

      const agg = {
        instant: { ms: [] as number[], walls: [] as number[], errors: 0, incomplete: 0, firstError: '' },
        paced: { ms: [] as number[], walls: [] as number[], errors: 0, incomplete: 0, firstError: '' },
      };
      for (let round = 0; round < rounds; round++) {
        for (const pace of (round % 2 === 0 ? ['instant', 'paced'] : ['paced', 'instant']) as Pace[]) {
          const t0 = performance.now();
          const outcomes = await Promise.all(Array.from({ length: concurrency }, () => runTurn(pace)));
          const wall = performance.now() - t0;
          const a = agg[pace];
          a.walls.push(wall);
          for (const o of outcomes) {
            a.ms.push(o.ms);
            if (o.error) {
              a.errors++;
              a.firstError ||= o.error;
            }
            if (o.incomplete) a.incomplete++;
          }
          progress(
            `chat-concurrency: round ${round + 1}/${rounds} ${pace}: ${concurrency} turns in ${wall.toFixed(0)} ms, ` +
              `${outcomes.filter((o) => o.error).length} errors, ${outcomes.filter((o) => o.incomplete).length} incomplete`,
          );
          // let the server settle between rounds
          await sleep(200);
        }
      }
      const hwm = procStatusMB(server.child.pid, 'VmHWM');
      const rss = procStatusMB(server.child.pid, 'VmRSS');

      const figures: Figure[] = [];
      const notes: string[] = [];
      for (const pace of ['instant', 'paced'] as const) {
        const a = agg[pace];
        const s = summarize(a.ms);
        const k = `conc.${pace}`;
        figures.push(
          {
            key: `${k}.errors`,
            label: `${pace}: turns with an error (of ${a.ms.length})`,
            value: a.errors,
            unit: '',
            target: { op: '<=', value: 0 },
          },
          {
            key: `${k}.incomplete`,
            label: `${pace}: streams without done`,
            value: a.incomplete,
            unit: '',
            target: { op: '<=', value: 0 },
          },
          {
            key: `${k}.wall_ms`,
            label: `${pace}: wall time for ${concurrency} turns (median of ${a.walls.length} rounds)`,
            value: summarize(a.walls).median,
            unit: 'ms',
          },
          { key: `${k}.p50_ms`, label: `${pace}: turn time p50`, value: s.median, unit: 'ms' },
          { key: `${k}.p95_ms`, label: `${pace}: turn time p95`, value: s.p95, unit: 'ms' },
          { key: `${k}.max_ms`, label: `${pace}: turn time max`, value: s.max, unit: 'ms' },
          {
            key: `${k}.turns_per_s`,
            label: `${pace}: turns per second (${concurrency} / median wall)`,
            value: concurrency / (summarize(a.walls).median / 1000),
            unit: '1/s',
          },
          {
            key: `${k}.alone_ms`,
            label: `baseline ${pace}: one turn alone, median of ${aloneCount}`,
            value: summarize(alone[pace]).median,
            unit: 'ms',
          },
        );
        if (a.firstError) notes.push(`${pace}: first error: ${a.firstError}`);
      }
      figures.push(
        {
          key: 'conc.server_hwm_mb',
          label: 'server VmHWM (peak RSS) after the rounds',
          value: hwm,
          unit: 'MB',
        },
        { key: 'conc.server_rss_mb', label: 'server VmRSS after the rounds', value: rss, unit: 'MB' },
      );
      if (gw.errors.length)
        notes.push(`gateway script errors: ${gw.errors.length}; first: ${gw.errors[0].slice(0, 300)}`);
      notes.unshift(
        `${fx.cards} cards; ${rounds} rounds of ${concurrency} simultaneous turns per gateway behaviour (alternating); each turn: preamble + read_manifest_meta, read_manifest_meta, 30-token answer; new connection per turn; HEALTH_DEBUG off`,
        `paced: ${TTFB_MS} ms to the first chunk and ${GAP_MS} ms between chunks; instant: each reply in one write`,
      );
      return { figures, notes };
    } finally {
      await server?.stop();
      await gw.close();
    }
  },
};
