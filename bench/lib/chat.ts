/**
 * Plumbing shared by the chat benchmarks: a Klebb child pointed at the instant gateway, turn
 * markers the gateway script reads back, and realistic chat text for stored conversations (a
 * seeded generator, so every run stores the same words).
 */
import type { HttpClient, HttpResult } from './http.js';
import { expectStatus } from './http.js';
import type { InstantGateway } from './instant-gateway.js';
import { BENCH_TOKEN, type KlebbServer, startKlebb } from './klebb.js';

/** The environment that points a Klebb child at `gw` (HEALTH_DEBUG on unless `debug` is false). */
export function chatEnv(gw: InstantGateway, opts: { debug?: boolean } = {}): Record<string, string> {
  return {
    CHAT_ENDPOINT_URL: gw.url,
    CHAT_API_KEY: 'bench-key',
    CHAT_MODEL: 'bench-instant',
    HEALTH_DEBUG: opts.debug === false ? '0' : '1',
  };
}

/** Starts Klebb on `home` with chat pointed at `gw`. */
export function startChatServer(
  home: string,
  logFile: string,
  gw: InstantGateway,
  opts: { debug?: boolean; env?: Record<string, string> } = {},
): Promise<KlebbServer> {
  return startKlebb(home, logFile, { ...chatEnv(gw, opts), ...opts.env });
}

let markerSeq = 0;

/** A fresh turn marker `bench-turn-<kind>-<n>` (the gateway script finds it in the request). */
export function turnMarker(kind: string): string {
  return `bench-turn-${kind}-${++markerSeq}`;
}

/** The `<kind>` of a marker made by turnMarker. */
export function markerKind(marker: string | undefined): string | undefined {
  return marker ? /^bench-turn-(.+)-\d+$/.exec(marker)?.[1] : undefined;
}

/** One buffered `POST /api/chat`; throws unless 200. */
export async function chatBuffered(client: HttpClient, body: Record<string, unknown>): Promise<HttpResult> {
  return expectStatus(
    await client.request('/api/chat', { json: body, token: BENCH_TOKEN }),
    200,
    'POST /api/chat',
  );
}

/** mulberry32: a small seeded PRNG in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const USER_OPENERS = [
  'Can you log my weight for today',
  'How did I sleep over the last week',
  'I walked to work and back again today',
  'Please add a blood pressure reading',
  'What was my resting heart rate on Monday',
  'Remind me to take my vitamin D every morning',
  'I had a headache after lunch, can you note it',
  'Show me how my running pace changed this month',
  'Did I drink enough water yesterday',
  'Add a new card for tracking migraines',
  'How many steps did I average in October',
  'Log 40 minutes of cycling at a moderate effort',
];
const ASSISTANT_OPENERS = [
  'Done: I added the reading to your card',
  'Your average over the last seven days was steady',
  'I checked the card before writing anything',
  'Here is what the last entries show',
  'I could not find a card for that yet, so I suggest creating one',
  'Noted, and I kept the unit you usually use',
  'That is a little higher than your usual range',
  'Compared with last month you are trending down slightly',
];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const WHEN = ['after breakfast', 'before bed', 'at lunchtime', 'right after waking up', 'in the evening'];
const WEATHER = ['light rain', 'strong wind', 'bright sun', 'fog', 'snow', 'humid heat'];
const int = (r: () => number, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const date = (r: () => number) =>
  `2026-${String(int(r, 1, 12)).padStart(2, '0')}-${String(int(r, 1, 28)).padStart(2, '0')}`;
/** Details with numbers, dates and places drawn from `r`, so most long substrings are rare. */
const DETAILS: ((r: () => number) => string)[] = [
  (r) => `the morning reading was ${(60 + r() * 40).toFixed(1)} kg ${WHEN[int(r, 0, WHEN.length - 1)]}`,
  (r) =>
    `systolic ${int(r, 105, 160)} and diastolic ${int(r, 60, 100)}, taken ${r() < 0.5 ? 'sitting down' : 'standing'}`,
  (r) => `about ${int(r, 4, 9)} hours ${int(r, 0, 59)} minutes with ${int(r, 0, 5)} short wake-ups`,
  (r) => `resting heart rate of ${int(r, 48, 80)} bpm on ${WEEKDAYS[int(r, 0, 6)]}`,
  (r) =>
    `roughly ${int(r, 2, 19)} ${String(int(r, 0, 999)).padStart(3, '0')} steps, most of them ${WHEN[int(r, 0, WHEN.length - 1)]}`,
  (r) => `${int(r, 1, 6)} glasses of water on ${date(r)}`,
  (r) =>
    `the pain was on the ${r() < 0.5 ? 'left' : 'right'} side and lasted about ${int(r, 10, 180)} minutes`,
  (r) =>
    `a ${(2 + r() * 18).toFixed(1)} km run at ${int(r, 4, 7)}:${String(int(r, 0, 59)).padStart(2, '0')} per kilometre in ${WEATHER[int(r, 0, WEATHER.length - 1)]}`,
  (r) => `one ${int(r, 1, 4) * 500} IU tablet ${WHEN[int(r, 0, WHEN.length - 1)]}`,
  (r) => `the sleep card shows a later bedtime on ${WEEKDAYS[int(r, 0, 6)]}s since ${date(r)}`,
  (r) => `the trend line is flat since ${date(r)}`,
  (r) => `I used ${date(r)}, the date you gave, not today`,
  (r) => `${int(r, 10, 90)} minutes of cycling at an average of ${int(r, 95, 170)} bpm`,
  (r) => `a blood glucose value of ${(4 + r() * 5).toFixed(1)} mmol/L ${WHEN[int(r, 0, WHEN.length - 1)]}`,
];
const TAILS = [
  'Let me know if you want a weekly summary.',
  'Should I set a reminder for this?',
  'I can also chart it next to your sleep.',
  'Tell me if the time was different.',
  'Nothing else changed on the card.',
  'Want me to compare it with last year?',
];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

/** A realistic message of about `min`..`max` characters, from `r`. */
export function chatLine(r: () => number, role: 'user' | 'assistant', min = 100, max = 300): string {
  const target = min + Math.floor(r() * (max - min + 1));
  let s = `${pick(r, role === 'user' ? USER_OPENERS : ASSISTANT_OPENERS)}: ${pick(r, DETAILS)(r)}.`;
  while (s.length < target) s += ` ${r() < 0.5 ? pick(r, TAILS) : `Also, ${pick(r, DETAILS)(r)}.`}`;
  return s.length > max ? `${s.slice(0, max - 1).trimEnd()}.` : s;
}

/** `n` alternating user/assistant messages (starting with user), realistic text. */
export function chatMessages(
  seed: number,
  n: number,
  opts: { min?: number; max?: number } = {},
): { role: 'user' | 'assistant'; content: string }[] {
  const r = rng(seed);
  return Array.from({ length: n }, (_, i) => {
    const role = i % 2 === 0 ? 'user' : 'assistant';
    return { role, content: chatLine(r, role, opts.min, opts.max) } as const;
  });
}

/** Appends `value` to the list kept under `key` (made on first use), unless it already holds `cap`. */
export function pushTo<K>(
  map: Map<K, number[]>,
  key: K,
  value: number,
  cap = Number.POSITIVE_INFINITY,
): void {
  let list = map.get(key);
  if (!list) {
    list = [];
    map.set(key, list);
  }
  if (list.length < cap) list.push(value);
}
