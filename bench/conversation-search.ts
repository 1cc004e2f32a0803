/**
 * conversation-search: `POST /api/conversations/search` over 100 conversations of 200
 * messages each (20 000 messages).
 *
 * How: a fresh home, Klebb as a child (`node dist/server/main.js`, production log level). 100
 * titled conversations are created over HTTP (`POST /api/conversations`), each with 200
 * realistic messages of 100-300 characters from a seeded generator (about 60 KB of JSON per
 * write, under the 512 KB cap). Then ~200 different needles, one request each, from one
 * keep-alive socket, latency at the client from sending to the last byte:
 * - hits: substrings cut at random from stored messages (6-20 characters, half of them holding a
 *   number or date, so they hit few conversations; some upper-cased, so the case-insensitive path
 *   is used), and words and phrases of the vocabulary (which hit most conversations);
 * - misses: health words that never occur, random letter strings, regex-looking text (`.*`,
 *   `(a|b)`, `[x]`), which must be taken literally.
 * Hits and misses alternate in blocks of 10 with `GET /healthz` as the baseline
 * (lib/interleave.ts). Reports the median over all searches (target < 20 ms), hits and misses
 * apart, p95, max, and the median number of conversations a hit returns.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { healthzProbe } from './lib/baseline.js';
import type { Benchmark } from './lib/bench.js';
import { chatMessages, rng } from './lib/chat.js';
import { expectStatus } from './lib/http.js';
import { interleave } from './lib/interleave.js';
import { BENCH_TOKEN, type KlebbServer, startKlebb } from './lib/klebb.js';
import { type Figure, progress } from './lib/report.js';
import { summarize } from './lib/stats.js';
import { makeTempDir, removeTempDir } from './lib/temp.js';

const MESSAGES = 200;
const TITLES = [
  'Weight check-ins',
  'Sleep and late nights',
  'Blood pressure log',
  'Running plan for spring',
  'Migraine diary',
  'Vitamin D reminders',
  'Steps in October',
  'Hydration questions',
];
const MISS_WORDS = [
  'ibuprofen',
  'dentist appointment',
  'cholesterol',
  'physiotherapy',
  'allergy season',
  'knee surgery',
  'insulin',
  'Zahnarzt',
  'café crème',
];
const REGEXISH = ['.*', 'a.*b', '(a|b)', '[x]', 'kg+', '^Done', 'bpm$', '\\d+', 'w{2}', '?'];
const VOCAB_HITS = [
  'blood pressure',
  'RESTING HEART',
  '72.4 kg',
  'Vitamin D',
  'weekly summary',
  'light rain',
  'diastolic 82',
  '2026-03-14',
  'migraines',
  'glucose value of 5.5',
  'trend line',
  'cycling',
];

export const conversationSearch: Benchmark = {
  name: 'conversation-search',
  title: 'Conversations: search over 100 conversations of 200 messages',
  async run(ctx) {
    const conversations = ctx.quick ? 20 : 100;
    const perKind = ctx.quick ? 40 : 100;
    const warmup = ctx.quick ? 5 : 20;
    const dir = makeTempDir('conv-search');
    let server: KlebbServer | undefined;
    try {
      server = await startKlebb(path.join(dir, 'home'), path.join(dir, 'server.log'));
      const srv = server;
      const t0 = performance.now();
      const stored: string[] = [];
      let maxBody = 0;
      for (let c = 0; c < conversations; c++) {
        const messages = chatMessages(1000 + c, MESSAGES);
        for (const m of messages) stored.push(m.content);
        const body = JSON.stringify({ title: `${TITLES[c % TITLES.length]} ${c + 1}`, messages });
        maxBody = Math.max(maxBody, Buffer.byteLength(body));
        expectStatus(
          await srv.client.request('/api/conversations', { body, token: BENCH_TOKEN }),
          201,
          `create conversation ${c + 1}`,
        );
        if ((c + 1) % 25 === 0) progress(`  ${c + 1}/${conversations} conversations created`);
      }
      const seedS = (performance.now() - t0) / 1000;
      const list = JSON.parse(
        expectStatus(await srv.client.request('/api/conversations', { token: BENCH_TOKEN }), 200, 'list')
          .body,
      ) as { conversations: { messageCount: number }[] };
      if (
        list.conversations.length !== conversations ||
        list.conversations.some((c) => c.messageCount !== MESSAGES)
      ) {
        throw new Error(`expected ${conversations} conversations of ${MESSAGES} messages`);
      }

      // needles: every one different
      const r = rng(77);
      const lowerAll = stored.map((s) => s.toLowerCase());
      const need = perKind + warmup;
      const isHit = (n: string) => {
        const l = n.toLowerCase();
        return lowerAll.some((s) => s.includes(l));
      };
      const inTitle = (n: string) => TITLES.some((t) => t.toLowerCase().includes(n.toLowerCase()));
      const hitSet = new Set<string>(VOCAB_HITS.filter(isHit));
      while (hitSet.size < need) {
        const s = stored[Math.floor(r() * stored.length)];
        const len = 6 + Math.floor(r() * 15);
        const at = Math.floor(r() * Math.max(1, s.length - len));
        let needle = s.slice(at, at + len);
        if (needle.trim() === '' || needle.trim() !== needle) continue;
        // half of them hold a number or date: those are rare across conversations, like a real lookup
        if (hitSet.size % 2 === 0 && !/\d/.test(needle)) continue;
        if (r() < 0.3) needle = needle.toUpperCase();
        hitSet.add(needle);
      }
      const missSet = new Set<string>([...MISS_WORDS, ...REGEXISH].filter((n) => !isHit(n) && !inTitle(n)));
      while (missSet.size < need) {
        const len = 5 + Math.floor(r() * 8);
        let w = '';
        for (let i = 0; i < len; i++) w += String.fromCharCode(97 + Math.floor(r() * 26));
        const needle = r() < 0.5 ? w : `${w} ${Math.floor(r() * 1000)}`;
        if (!isHit(needle) && !inTitle(needle)) missSet.add(needle);
      }
      // hits and misses each in a shuffled order, so vocabulary and random needles mix
      const shuffle = (xs: string[]) => {
        for (let i = xs.length - 1; i > 0; i--) {
          const j = Math.floor(r() * (i + 1));
          [xs[i], xs[j]] = [xs[j], xs[i]];
        }
        return xs;
      };
      const hitList = shuffle([...hitSet]);
      const missList = shuffle([...missSet]);

      const hitCounts: number[] = [];
      const hitBytes: number[] = [];
      const measured: number[] = [];
      let hi = 0;
      let mi = 0;
      const search = async (q: string, expectHit: boolean, nth: number) => {
        const res = expectStatus(
          await srv.client.request('/api/conversations/search', { json: { q }, token: BENCH_TOKEN }),
          200,
          `search ${JSON.stringify(q)}`,
        );
        const found = (JSON.parse(res.body) as { conversations: unknown[] }).conversations.length;
        if (expectHit && found === 0)
          throw new Error(`search ${JSON.stringify(q)} found nothing, expected a hit`);
        if (!expectHit && found !== 0)
          throw new Error(`search ${JSON.stringify(q)} found ${found}, expected none`);
        if (nth >= warmup) {
          measured.push(res.ms);
          if (expectHit) {
            hitCounts.push(found);
            hitBytes.push(Buffer.byteLength(res.body));
          }
        }
        return res.ms;
      };
      progress(
        `conversation-search: ${warmup} warm-up + ${perKind} measured searches each for hits and misses, interleaved with GET /healthz`,
      );
      const results = await interleave(
        [
          { name: 'hit', op: () => search(hitList[hi], true, hi++) },
          { name: 'miss', op: () => search(missList[mi], false, mi++) },
          healthzProbe(srv.client),
        ],
        { warmup, count: perKind, block: 10 },
      );
      const hit = results.get('hit');
      const miss = results.get('miss');
      const healthz = results.get('healthz');
      if (!hit || !miss || !healthz) throw new Error('missing results');
      const all = summarize(measured);
      const figures: Figure[] = [
        {
          key: 'search.median_ms',
          label: `all ${all.n} searches (hits and misses): median`,
          value: all.median,
          unit: 'ms',
          target: { op: '<', value: 20 },
        },
        { key: 'search.p95_ms', label: 'all searches: p95', value: all.p95, unit: 'ms' },
        { key: 'search.max_ms', label: 'all searches: max', value: all.max, unit: 'ms' },
        {
          key: 'search.hit_median_ms',
          label: `hits (${hit.latency.n}): median`,
          value: hit.latency.median,
          unit: 'ms',
        },
        { key: 'search.hit_p95_ms', label: 'hits: p95', value: hit.latency.p95, unit: 'ms' },
        {
          key: 'search.miss_median_ms',
          label: `misses (${miss.latency.n}): median`,
          value: miss.latency.median,
          unit: 'ms',
        },
        { key: 'search.miss_p95_ms', label: 'misses: p95', value: miss.latency.p95, unit: 'ms' },
        {
          key: 'search.hit_conversations',
          label: 'conversations per hit, median',
          value: summarize(hitCounts).median,
          unit: '',
        },
        {
          key: 'search.hit_all_share',
          label: 'share of hits that match every conversation',
          value: hitCounts.filter((n) => n === conversations).length / Math.max(1, hitCounts.length),
          unit: '',
        },
        {
          key: 'search.hit_response_kib',
          label: 'hit response size, median',
          value: summarize(hitBytes).median / 1024,
          unit: 'KiB',
        },
        {
          key: 'search.baseline_healthz_ms',
          label: 'baseline GET /healthz, median',
          value: healthz.latency.median,
          unit: 'ms',
        },
        {
          key: 'search.seed_s',
          label: `creating ${conversations} conversations over HTTP`,
          value: seedS,
          unit: 's',
        },
      ];
      const notes = [
        `${conversations} conversations x ${MESSAGES} messages of 100-300 chars (${stored.length.toLocaleString('en-US')} messages, ${(stored.reduce((a, m) => a + m.length, 0) / 1e6).toFixed(1)} M chars), created over HTTP, largest write ${(maxBody / 1024).toFixed(0)} KiB`,
        `${warmup} warm-up + ${perKind} measured searches per kind, every needle different, interleaved in blocks of 10 with GET /healthz on one keep-alive socket; client-side latency`,
      ];
      return { figures, notes };
    } finally {
      await server?.stop();
      removeTempDir(dir);
    }
  },
};
