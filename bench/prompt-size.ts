/**
 * prompt-size: what the chat sends the model per call and per turn, at 1, 30 and 200 cards, and
 * how much of it a provider that caches only at `cache_control` marks must read uncached.
 *
 * How: for each card count a fresh home, Klebb as a child (`node dist/server/main.js`, default
 * settings: CHAT_PROMPT_CACHE on) pointed at the instant gateway in this process, and that many
 * realistic cards created over HTTP (labels, emoji and one-line descriptions of the kind people
 * track, 14 rows each). Two identical turns are run back to back; each makes 5 round-trips: the
 * model asks for get_recent_activity, list_manifests, read_manifest_meta and read_manifest_rows
 * (the real tools answer), then answers. The gateway keeps every request body; the second turn
 * is measured (the first warms the cache, as an earlier turn of the day would).
 * - per call: the first request of the turn (tool definitions, system prompt, the user message);
 * - fixed overhead: that request minus the card lines and the user message, at 1 card;
 * - per card: tokens of the card list at 200 cards minus at 1 card, over 199;
 * - per turn: the five requests added up, and the part the cache model (bench/lib/cache-model.ts)
 *   finds uncached;
 * - floor: the turn's own conversation (user message, tool calls, tool results, each request
 *   counting what it carries) with no prompt and no tools: what any agent loop sends.
 * Tokens are estimates (o200k_base); bytes are those of each block's JSON.
 * `before` figures were measured by this benchmark on the commit before the prompt diet and are
 * printed beside the live ones for the ratio.
 */
import path from 'node:path';
import type { Benchmark } from './lib/bench.js';
import { MarkCache, type RequestSizes, sizeOf } from './lib/cache-model.js';
import { chatBuffered, startChatServer } from './lib/chat.js';
import { expectStatus, type HttpClient } from './lib/http.js';
import { type GatewayAnswer, startInstantGateway } from './lib/instant-gateway.js';
import { BENCH_TOKEN, type KlebbServer, rowDate } from './lib/klebb.js';
import { type Figure, progress } from './lib/report.js';
import { makeTempDir, removeTempDir } from './lib/temp.js';

const SIZES = [1, 30, 200];
const ROUND_TRIPS = 5;

/** Cards people keep: label, emoji, description, the one number field of their rows. */
const KINDS: [string, string, string, string][] = [
  ['Weight', '⚖️', 'Morning weight before breakfast, one reading a day.', 'kg'],
  ['Blood pressure', '🩺', 'Home blood pressure readings, up to three a day.', 'systolic'],
  ['Sleep', '😴', 'Hours slept, from the phone, with bed and wake times.', 'hours'],
  ['Resting heart rate', '❤️', 'Resting heart rate from the watch.', 'bpm'],
  ['HRV', '📈', 'Heart rate variability each morning, in milliseconds.', 'ms'],
  ['Steps', '👟', 'Daily step count from the phone.', 'count'],
  ['Water', '💧', 'Glasses of water drunk through the day.', 'glasses'],
  ['Caffeine', '☕', 'Coffee and tea, in milligrams of caffeine.', 'mg'],
  ['Mood', '🙂', 'Mood from 1 to 5, logged in the evening with a short note.', 'score'],
  ['Vitamin D', '💊', '5000 IU with breakfast; paused in summer.', 'iu'],
  ['Magnesium', '💊', 'Magnesium glycinate before bed.', 'mg'],
  ['Creatine', '🥤', 'Creatine monohydrate, 5 g a day in the shake.', 'g'],
  ['BPC-157', '💉', 'Peptide protocol, subcutaneous, tracked per injection site.', 'mcg'],
  ['Glucose', '🩸', 'Fasting glucose from the meter, mg/dL.', 'mgdl'],
  ['Workouts', '🏋️', 'Strength sessions: main lift, sets and top weight.', 'kg'],
  ['Alcohol', '🍷', 'Standard drinks per day.', 'drinks'],
  ['Body fat', '📏', 'Body fat percentage from the smart scale.', 'percent'],
  ['Meditation', '🧘', 'Minutes meditated, guided or silent.', 'minutes'],
  ['Protein', '🍗', 'Grams of protein eaten, from the food log.', 'g'],
  ['Migraine', '🤕', 'Migraine days: intensity 1-10 and what helped.', 'intensity'],
];

/** Card `i` (0-based): a kind, numbered from the second round of kinds on. */
function cardOf(i: number): Record<string, unknown> {
  const [label, emoji, description, field] = KINDS[i % KINDS.length];
  const round = Math.floor(i / KINDS.length);
  const fullLabel = round === 0 ? label : `${label} ${round + 1}`;
  const id = fullLabel
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return {
    $schema: 'klebb.datafile.v1',
    meta: {
      id,
      label: fullLabel,
      emoji,
      view: { enabled: true, component: 'generic-card', display: { template: `{${field}}` } },
      writeable: {
        fromWebapp: true,
        inputs: [{ key: field, label: field, type: 'number', required: true }],
      },
    },
    description,
    data: Array.from({ length: 14 }, (_, d) => ({ date: rowDate(45_000 + d), [field]: 40 + ((d * 7) % 30) })),
  };
}

async function seedCards(client: HttpClient, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const card = cardOf(i);
    expectStatus(
      await client.request('/api/manifests', { json: card, token: BENCH_TOKEN }),
      201,
      `create card ${i}`,
    );
    ids.push((card.meta as { id: string }).id);
  }
  return ids;
}

/** The scripted model: four tool calls, one per round-trip, then the answer. */
function modelFor(firstId: string): (toolResults: number) => GatewayAnswer {
  const calls = [
    { name: 'get_recent_activity', arguments: {} },
    { name: 'list_manifests', arguments: {} },
    { name: 'read_manifest_meta', arguments: { id: firstId } },
    { name: 'read_manifest_rows', arguments: { id: firstId, path: '' } },
  ];
  return (done) =>
    done < calls.length
      ? { kind: 'tools', calls: [calls[done]] }
      : { kind: 'text', text: 'Your tracking is on course: every card has an entry from this week.' };
}

// biome-ignore lint/suspicious/noExplicitAny: request bodies are untyped JSON
type Json = any;

/** The card lines of a request's system prompt (`## Currently available cards` up to the next block). */
function cardLines(body: Json): string {
  const system = body.messages[0];
  const text: string = Array.isArray(system.content)
    ? system.content.map((p: Json) => p.text).join('\n\n')
    : system.content;
  const start = text.indexOf('## Currently available cards');
  const end = text.indexOf('\n\n', start);
  return text.slice(text.indexOf('\n', start) + 1, end === -1 ? undefined : end);
}

/** The conversation a request carries (every message but the system one). */
function conversationOf(body: Json): Json[] {
  return body.messages.filter((m: Json) => m.role !== 'system');
}

interface SizeRun {
  cards: number;
  first: RequestSizes;
  turn: RequestSizes;
  floor: { bytes: number; tokens: number };
  fixed: { bytes: number; tokens: number };
  cardTokens: number;
}

async function measure(n: number, dir: string): Promise<SizeRun> {
  const bodies: Json[] = [];
  let model: (toolResults: number) => GatewayAnswer = () => ({ kind: 'text', text: 'ok' });
  const gw = await startInstantGateway((call) => {
    bodies.push(JSON.parse(call.raw));
    return model(call.toolResults);
  });
  let server: KlebbServer | undefined;
  try {
    server = await startChatServer(path.join(dir, `home-${n}`), path.join(dir, `server-${n}.log`), gw, {
      debug: false,
    });
    const ids = await seedCards(server.client, n);
    model = modelFor(ids[0]);
    const ask = { messages: [{ role: 'user', content: 'How is my tracking going this week?' }] };
    await chatBuffered(server.client, ask);
    await chatBuffered(server.client, ask);
    if (bodies.length !== 2 * ROUND_TRIPS)
      throw new Error(`expected ${2 * ROUND_TRIPS} calls, got ${bodies.length}`);
    const cache = new MarkCache();
    const sizes = bodies.map((b) => cache.send(b));
    const turnSizes = sizes.slice(ROUND_TRIPS);
    const add = (k: keyof RequestSizes) => turnSizes.reduce((a, s) => a + s[k], 0);
    const turn: RequestSizes = {
      bytes: add('bytes'),
      tokens: add('tokens'),
      cachedBytes: add('cachedBytes'),
      cachedTokens: add('cachedTokens'),
      marks: Math.max(...turnSizes.map((s) => s.marks)),
    };
    const turnBodies = bodies.slice(ROUND_TRIPS);
    const floorParts = turnBodies.map((b) => sizeOf(conversationOf(b)));
    const floor = {
      bytes: floorParts.reduce((a, s) => a + s.bytes, 0),
      tokens: floorParts.reduce((a, s) => a + s.tokens, 0),
    };
    const first = turnSizes[0];
    const lines = sizeOf(cardLines(turnBodies[0]));
    const user = sizeOf(conversationOf(turnBodies[0]));
    return {
      cards: n,
      first,
      turn,
      floor,
      fixed: {
        bytes: first.bytes - lines.bytes - user.bytes,
        tokens: first.tokens - lines.tokens - user.tokens,
      },
      cardTokens: lines.tokens,
    };
  } finally {
    await server?.stop();
    await gw.close();
  }
}

/**
 * Figures of this benchmark on the commit before the moving mark and the prompt diet (75313c5),
 * same method and cache model:
 * `<cards>: [first-call bytes, first-call tokens, turn bytes, turn tokens, uncached bytes,
 * uncached tokens]`, plus the fixed overhead and the card-list tokens per card.
 */
const BEFORE: Record<number, number[]> = {
  1: [41_883, 11_138, 215_685, 57_387, 17_480, 6_357],
  30: [44_053, 11_750, 261_187, 69_633, 52_132, 15_543],
  200: [57_174, 15_779, 533_008, 146_707, 258_348, 72_472],
};
const BEFORE_FIXED = { bytes: 41_611, tokens: 11_070 };
const BEFORE_CARD_TOKENS = 23.3;

export const promptSize: Benchmark = {
  name: 'prompt-size',
  title: 'Chat prompt: bytes and estimated tokens per call and per 5-round-trip turn',
  async run(ctx) {
    const sizes = ctx.quick ? [1, 30] : SIZES;
    const dir = makeTempDir('prompt-size');
    const runs: SizeRun[] = [];
    try {
      for (const n of sizes) {
        progress(`prompt-size: ${n} cards`);
        runs.push(await measure(n, dir));
      }
    } finally {
      removeTempDir(dir);
    }
    const figures: Figure[] = [];
    const one = runs[0];
    const many = runs.at(-1) as SizeRun;
    const perCard = (many.cardTokens - one.cardTokens) / Math.max(1, many.cards - one.cards);
    figures.push(
      {
        key: 'fixed_bytes',
        label: 'fixed overhead (tools + prompt, no card)',
        value: one.fixed.bytes,
        unit: 'B',
        target: { op: '<=', value: 20_000 },
      },
      { key: 'fixed_tokens', label: 'fixed overhead, tokens', value: one.fixed.tokens, unit: 'tok' },
      {
        key: 'card_tokens',
        label: `card list, tokens per card (${one.cards} to ${many.cards} cards)`,
        value: perCard,
        unit: 'tok',
        target: { op: '<=', value: 15 },
      },
    );
    if (BEFORE_FIXED.bytes > 0) {
      figures.push(
        { key: 'before_fixed_bytes', label: 'before: fixed overhead', value: BEFORE_FIXED.bytes, unit: 'B' },
        {
          key: 'before_fixed_tokens',
          label: 'before: fixed overhead, tokens',
          value: BEFORE_FIXED.tokens,
          unit: 'tok',
        },
        {
          key: 'before_card_tokens',
          label: 'before: tokens per card',
          value: BEFORE_CARD_TOKENS,
          unit: 'tok',
        },
      );
    }
    for (const r of runs) {
      const uncachedBytes = r.turn.bytes - r.turn.cachedBytes;
      const uncachedTokens = r.turn.tokens - r.turn.cachedTokens;
      const c = r.cards;
      figures.push(
        { key: `call_bytes_${c}`, label: `${c} cards: first call`, value: r.first.bytes, unit: 'B' },
        {
          key: `call_tokens_${c}`,
          label: `${c} cards: first call, tokens`,
          value: r.first.tokens,
          unit: 'tok',
        },
        {
          key: `turn_bytes_${c}`,
          label: `${c} cards: turn (${ROUND_TRIPS} calls)`,
          value: r.turn.bytes,
          unit: 'B',
        },
        { key: `turn_tokens_${c}`, label: `${c} cards: turn, tokens`, value: r.turn.tokens, unit: 'tok' },
        {
          key: `turn_uncached_bytes_${c}`,
          label: `${c} cards: turn, uncached`,
          value: uncachedBytes,
          unit: 'B',
        },
        {
          key: `turn_uncached_tokens_${c}`,
          label: `${c} cards: turn, uncached tokens`,
          value: uncachedTokens,
          unit: 'tok',
        },
        {
          key: `turn_marks_${c}`,
          label: `${c} cards: most cache marks in one call`,
          value: r.turn.marks,
          unit: '',
          target: { op: '<=', value: 4 },
        },
        {
          key: `floor_bytes_${c}`,
          label: `${c} cards: floor (conversation only, per turn)`,
          value: r.floor.bytes,
          unit: 'B',
        },
        { key: `floor_tokens_${c}`, label: `${c} cards: floor, tokens`, value: r.floor.tokens, unit: 'tok' },
        {
          key: `turn_vs_floor_${c}`,
          label: `${c} cards: turn tokens / floor`,
          value: r.turn.tokens / r.floor.tokens,
          unit: 'x',
        },
        {
          key: `uncached_vs_floor_${c}`,
          label: `${c} cards: uncached tokens / floor`,
          value: uncachedTokens / r.floor.tokens,
          unit: 'x',
        },
      );
      const b = BEFORE[c];
      if (b) {
        figures.push(
          { key: `before_call_bytes_${c}`, label: `${c} cards: before, first call`, value: b[0], unit: 'B' },
          {
            key: `before_turn_tokens_${c}`,
            label: `${c} cards: before, turn tokens`,
            value: b[3],
            unit: 'tok',
          },
          {
            key: `before_turn_uncached_tokens_${c}`,
            label: `${c} cards: before, uncached tokens`,
            value: b[5],
            unit: 'tok',
          },
          {
            key: `after_vs_before_call_bytes_${c}`,
            label: `${c} cards: first call, now / before`,
            value: r.first.bytes / b[0],
            unit: 'x',
          },
          {
            key: `after_vs_before_uncached_${c}`,
            label: `${c} cards: uncached tokens, now / before`,
            value: uncachedTokens / b[5],
            unit: 'x',
          },
        );
      }
    }
    const notes = [
      `bytes: JSON of each tool definition, system part and message; tokens: o200k_base estimates (gpt-tokenizer)`,
      `uncached: a provider that caches only at cache_control marks, reading back ${20} blocks from a mark; the measured turn follows an identical warm-up turn`,
      'floor: the same turn with no system prompt and no tools (what the conversation itself costs)',
      ...runs.map(
        (r) =>
          `${r.cards} cards: fixed ${r.fixed.bytes} B / ${r.fixed.tokens} tok, card lines ${r.cardTokens} tok, first call ${r.first.bytes} B, turn ${r.turn.bytes} B (${r.turn.bytes - r.turn.cachedBytes} B uncached)`,
      ),
    ];
    return { figures, notes };
  },
};
