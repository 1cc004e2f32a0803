/**
 * conversation-turn: what a turn on a stored conversation of 200 messages adds in
 * server time over the same turn without `conversationId`.
 *
 * How: a fresh home, Klebb as a child (`node dist/server/main.js`, production log level,
 * HEALTH_DEBUG off) pointed at the instant gateway in this process. A titled conversation (so no
 * title side call) is created with `POST /api/conversations` and 200 realistic messages of
 * 100-300 characters (about 60 KB of JSON, well under the 512 KB cap). Every turn is one gateway
 * call answered at once with a reply of about 250 characters; server time = client wall time -
 * the gateway's own time. Interleaved in blocks of 10:
 * - `conversation`: `{conversationId, messages: [new user message]}`: the server stores the
 *   message, reads the newest messages within 24 000 characters, calls the gateway, stores the
 *   reply (the conversation stays at 200 messages: the oldest are trimmed);
 * - `same window`: no conversationId, the client sends the window itself (it keeps a copy of the
 *   stored conversation, turns included, and sends the same newest messages within 24 000
 *   characters plus the new one), so the gateway request is the same;
 * - `1 message`: no conversationId, only the new message;
 * each buffered, and the first two also streamed (`stream:true`, read to `done`);
 * baselines: fdatasync of 4 KiB in the temp folder (a conversation turn commits two SQLite
 * transactions, synchronous=FULL) and `GET /healthz`.
 * Added server time = median(conversation) - median(same window) (target < 5 ms).
 */
import path from 'node:path';
import { fdatasyncProbe, healthzProbe } from './lib/baseline.js';
import type { Benchmark } from './lib/bench.js';
import {
  chatBuffered,
  chatLine,
  chatMessages,
  pushTo,
  rng,
  startChatServer,
  turnMarker,
} from './lib/chat.js';
import { expectStatus } from './lib/http.js';
import { type GatewayAnswer, startInstantGateway } from './lib/instant-gateway.js';
import { interleave, type Participant } from './lib/interleave.js';
import { BENCH_TOKEN, type KlebbServer } from './lib/klebb.js';
import { type Figure, progress } from './lib/report.js';
import { eventData, sseRequest } from './lib/sse-client.js';
import { summarize } from './lib/stats.js';
import { makeTempDir, removeTempDir } from './lib/temp.js';

const STORED = 200;
const WINDOW_CHARS = 24_000;
/** A reply of realistic length (about 250 characters), the same every turn. */
const REPLY = chatLine(rng(99), 'assistant', 240, 260);

type Msg = { role: 'user' | 'assistant'; content: string };

/** The newest messages within `budget` characters, oldest first; the newest always goes in. */
function windowOf(messages: Msg[], budget: number): Msg[] {
  const out: Msg[] = [];
  let used = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    used += messages[i].content.length;
    if (out.length > 0 && used > budget) break;
    out.push(messages[i]);
  }
  return out.reverse();
}

export const conversationTurn: Benchmark = {
  name: 'conversation-turn',
  title: 'Conversations: a turn on a conversation of 200 stored messages vs without conversationId',
  async run(ctx) {
    const warmup = ctx.quick ? 10 : 30;
    const count = ctx.quick ? 50 : 300;
    const bytesIn = new Map<string, number[]>();
    const gw = await startInstantGateway((): GatewayAnswer => ({ kind: 'text', text: REPLY }));
    const dir = makeTempDir('conversation-turn');
    const disk = fdatasyncProbe(dir);
    let server: KlebbServer | undefined;
    try {
      server = await startChatServer(path.join(dir, 'home'), path.join(dir, 'server.log'), gw, {
        debug: false,
      });
      const srv = server;
      const seeded = chatMessages(4242, STORED);
      const createBody = JSON.stringify({ title: 'Weight and sleep check-ins', messages: seeded });
      const created = expectStatus(
        await srv.client.request('/api/conversations', { body: createBody, token: BENCH_TOKEN }),
        201,
        'create conversation',
      );
      const conv = (JSON.parse(created.body) as { conversation: { id: string; messageCount: number } })
        .conversation;
      if (conv.messageCount !== STORED)
        throw new Error(`stored ${conv.messageCount} messages, expected ${STORED}`);
      progress(
        `conversation-turn: conversation of ${STORED} messages (${(createBody.length / 1024).toFixed(0)} KiB of JSON) created`,
      );

      const userBase = chatLine(rng(7), 'user', 150, 170);
      const userText = (marker: string) => `${userBase} ${marker}`;
      // the client's copy of the stored conversation: what a conversation turn adds, trimmed to
      // 200 like the store, so `same window` sends what the server itself would read
      const mirror: Msg[] = [...seeded];
      const clientWindow = (marker: string): Msg[] =>
        windowOf([...mirror, { role: 'user', content: userText(marker) }], WINDOW_CHARS);

      const turn = async (
        name: string,
        kind: 'conv' | 'window' | 'single',
        stream: boolean,
      ): Promise<number> => {
        const marker = turnMarker(kind);
        gw.take();
        const body: Record<string, unknown> =
          kind === 'conv'
            ? { conversationId: conv.id, messages: [{ role: 'user', content: userText(marker) }] }
            : kind === 'window'
              ? { messages: clientWindow(marker) }
              : { messages: [{ role: 'user', content: userText(marker) }] };
        body.stream = stream;
        let wall: number;
        if (!stream) {
          const r = await chatBuffered(srv.client, body);
          if ((JSON.parse(r.body) as { reply?: string }).reply !== REPLY)
            throw new Error(`${name}: ${r.body.slice(0, 300)}`);
          wall = r.ms;
        } else {
          const r = await sseRequest(`${srv.url}/api/chat`, { json: body, token: BENCH_TOKEN });
          const reply = r.events.find((e) => e.type === 'reply');
          if (r.error || !r.done || !reply || eventData<{ reply: string }>(reply).reply !== REPLY) {
            throw new Error(`${name}: stream failed (HTTP ${r.status}) ${r.error ?? r.body.slice(0, 300)}`);
          }
          wall = r.endedAt - r.startedAt;
        }
        if (kind === 'conv') {
          mirror.push({ role: 'user', content: userText(marker) }, { role: 'assistant', content: REPLY });
          mirror.splice(0, mirror.length - STORED);
        }
        await gw.settled();
        const recs = gw.take();
        if (recs.length !== 1 || recs[0].marker !== marker) {
          throw new Error(`${name}: expected 1 gateway call, got ${recs.length} (a title side call?)`);
        }
        pushTo(bytesIn, name, recs[0].bytesIn, 100);
        return wall - recs[0].ms;
      };

      const P = (name: string, kind: 'conv' | 'window' | 'single', stream = false): Participant => ({
        name,
        op: () => turn(name, kind, stream),
      });
      const names = {
        conv: 'conversation (200 stored), buffered',
        window: 'no conversation, same window sent, buffered',
        single: 'no conversation, 1 message, buffered',
        convS: 'conversation (200 stored), streamed',
        windowS: 'no conversation, same window sent, streamed',
      };
      const participants: Participant[] = [
        P(names.conv, 'conv'),
        P(names.window, 'window'),
        P(names.single, 'single'),
        P(names.convS, 'conv', true),
        P(names.windowS, 'window', true),
        disk,
        healthzProbe(srv.client),
      ];
      progress(
        `conversation-turn: ${warmup} warm-up + ${count} measured turns per kind, interleaved in blocks of 10`,
      );
      const results = await interleave(participants, {
        warmup,
        count,
        block: 10,
        onRound: (d, total) => {
          if (d % 100 === 0) progress(`  ${d}/${total} measured turns per kind`);
        },
      });
      const after = expectStatus(
        await srv.client.request(`/api/conversations/${conv.id}`, { token: BENCH_TOKEN }),
        200,
        'read the conversation',
      );
      const stored = (JSON.parse(after.body) as { conversation: { messages: Msg[] } }).conversation.messages;
      if (stored.length !== STORED || stored.some((m, i) => m.content !== mirror[i].content)) {
        throw new Error(
          `after the turns the conversation (${stored.length} messages) differs from the client's copy`,
        );
      }

      const med = (n: string) => results.get(n)?.latency.median ?? Number.NaN;
      const figures: Figure[] = [];
      for (const n of Object.values(names)) {
        const r = results.get(n);
        if (!r) throw new Error(`missing ${n}`);
        const key = `conv_turn.${n.replace(/[^a-z0-9]+/gi, '_').replace(/_+$/, '')}`;
        figures.push(
          { key: `${key}.median_ms`, label: `${n}: server ms, median`, value: r.latency.median, unit: 'ms' },
          { key: `${key}.p95_ms`, label: `${n}: server ms, p95`, value: r.latency.p95, unit: 'ms' },
        );
      }
      figures.push(
        {
          key: 'conv_turn.added_buffered_ms',
          label: 'added by the conversation, buffered (vs same window sent)',
          value: med(names.conv) - med(names.window),
          unit: 'ms',
          target: { op: '<', value: 5 },
        },
        {
          key: 'conv_turn.added_streamed_ms',
          label: 'added by the conversation, streamed (vs same window sent)',
          value: med(names.convS) - med(names.windowS),
          unit: 'ms',
          target: { op: '<', value: 5 },
        },
        {
          key: 'conv_turn.added_vs_single_ms',
          label: 'conversation vs 1 message sent, buffered',
          value: med(names.conv) - med(names.single),
          unit: 'ms',
        },
        {
          key: 'conv_turn.request_conv_kib',
          label: 'gateway request body, conversation turn',
          value: summarize(bytesIn.get(names.conv) ?? []).median / 1024,
          unit: 'KiB',
        },
        {
          key: 'conv_turn.request_window_kib',
          label: 'gateway request body, same window sent',
          value: summarize(bytesIn.get(names.window) ?? []).median / 1024,
          unit: 'KiB',
        },
        {
          key: 'conv_turn.baseline_fdatasync_ms',
          label: 'baseline: fdatasync 4 KiB, median',
          value: med('fdatasync'),
          unit: 'ms',
        },
        {
          key: 'conv_turn.baseline_healthz_ms',
          label: 'baseline: GET /healthz, median',
          value: med('healthz'),
          unit: 'ms',
        },
      );
      const notes = [
        `conversation: ${STORED} messages of 100-300 chars, titled (no title side call); window = newest within ${WINDOW_CHARS} chars; each turn is 1 gateway call; server ms = client wall - gateway own time`,
        `${warmup} warm-up + ${count} measured turns per kind, interleaved in blocks of 10; buffered on one keep-alive socket, streamed on a new connection per turn; fresh home, HEALTH_DEBUG off`,
      ];
      return { figures, notes };
    } finally {
      disk.close();
      await server?.stop();
      await gw.close();
      removeTempDir(dir);
    }
  },
};
