/**
 * Re-framing a stream for the property tests: the same events as other bytes (random cuts, inside
 * UTF-8 characters too; LF, CRLF or single-LF separators; comment keep-alives; `[DONE]` left out
 * with the socket held open), or the same reply as one buffered JSON body. Seeded, so a failure
 * names the random seed that reproduces it.
 */
import type { Expected } from './corpus.js';

/** mulberry32: a small seeded PRNG in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The data of each event of a fixture body (one `data:` line per event in our fixtures), [DONE] left out. */
export function eventsOf(body: string): string[] {
  return body
    .split(/\r?\n/)
    .filter((l) => l.startsWith('data:'))
    .map((l) => l.slice(5).replace(/^ /, ''))
    .filter((d) => d.trim() !== '[DONE]');
}

/** One re-framing of the events as bytes, plus whether the connection is then held open. */
export function reframe(events: string[], rand: () => number): { chunks: Buffer[]; hold: boolean } {
  const sep = ['\n\n', '\r\n\r\n', '\n'][Math.floor(rand() * 3)];
  const hold = rand() < 0.3;
  let text = '';
  for (const e of events) {
    if (rand() < 0.3) text += `: ⏳ still thinking…${sep === '\n' ? '\n' : sep}`;
    text += `data: ${e}${sep}`;
  }
  if (!hold) text += `data: [DONE]${sep}`;
  const bytes = Buffer.from(text, 'utf8');
  const cuts = new Set<number>();
  const n = 1 + Math.floor(rand() * 12);
  for (let i = 0; i < n; i++) cuts.add(1 + Math.floor(rand() * (bytes.length - 1)));
  // and at least one cut inside a multi-byte character when there is one
  const multi = [...bytes.entries()].filter(([, b]) => b >= 0x80 && b < 0xc0).map(([i]) => i);
  if (multi.length > 0) cuts.add(multi[Math.floor(rand() * multi.length)]);
  const chunks: Buffer[] = [];
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    chunks.push(bytes.subarray(at, cut));
    at = cut;
  }
  chunks.push(bytes.subarray(at));
  return { chunks, hold };
}

/**
 * The same reply as one buffered chat.completion body, built from the raw events (not our reader):
 * text from string content, text parts and completions-style `text` (the last piece when each
 * piece begins with the one before: snapshots of the whole text); reasoning from the plain
 * fields, thinking parts and readable reasoning items, sent back as `message.reasoning`; usage
 * beside the choices, wherever the stream put it.
 */
export function asBuffered(events: string[], expected: Expected): string {
  const pieces: string[] = [];
  let reasoning = '';
  let extra: Record<string, unknown> = {};
  for (const e of events) {
    const chunk = JSON.parse(e);
    for (const ch of chunk.choices ?? []) {
      if (!ch.delta && !ch.message && typeof ch.text === 'string') pieces.push(ch.text);
      const d = ch.delta ?? ch.message ?? {};
      for (const part of typeof d.content === 'string'
        ? [{ type: 'text', text: d.content }]
        : (d.content ?? [])) {
        if (part.type === 'text' && part.text) pieces.push(part.text);
        if (part.type === 'thinking') for (const t of part.thinking) reasoning += t.text;
      }
      const r = d.reasoning_content ?? d.reasoning;
      if (typeof r === 'string') reasoning += r;
      if (ch.usage) extra = { ...extra, usage: ch.usage };
      for (const item of r ? [] : (d.reasoning_details ?? []))
        if (item.type === 'reasoning.text' && item.text) reasoning += item.text;
    }
    for (const [k, v] of Object.entries(chunk))
      if (k === 'usage' || k.startsWith('x_')) extra = { ...extra, [k]: v };
  }
  // pieces each beginning with the one before are snapshots of the whole text: the last is all of it
  const snapshots = pieces.length >= 3 && pieces.every((p, i) => i === 0 || p.startsWith(pieces[i - 1]));
  const content = snapshots ? pieces[pieces.length - 1] : pieces.join('');
  const calls = (expected.calls ?? []).map(([name, args], i) => ({
    id: `c${i}`,
    type: 'function',
    function: { name, arguments: JSON.stringify(args) },
  }));
  return JSON.stringify({
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content,
          ...(reasoning ? { reasoning } : {}),
          ...(calls.length ? { tool_calls: calls } : {}),
        },
        finish_reason: calls.length ? 'tool_calls' : 'stop',
      },
    ],
    ...extra,
  });
}
