/**
 * A model of a provider that caches prompts only at `cache_control` marks (Anthropic's rule, also
 * what OpenRouter and LiteLLM pass on): a request is read as one sequence of blocks in the order
 * the provider hashes them (tool definitions, then system parts, then messages); each mark writes
 * a cache entry for the prefix ending at its block; a later request reads the longest prefix that
 * equals a written entry and ends at most LOOKBACK blocks before one of its own marks. The rest
 * is uncached input. Sizes are bytes of each block's JSON and tokens of that JSON (an estimate:
 * o200k_base from gpt-tokenizer, not the provider's own tokenizer). The minimum cacheable length
 * (1024 tokens and more, by model) is ignored.
 */
import { createHash } from 'node:crypto';
import { countTokens } from 'gpt-tokenizer';

/** Blocks a provider checks backwards from a mark for an earlier entry (Anthropic: 20). */
export const LOOKBACK = 20;

/** One block of a request. */
interface Block {
  bytes: number;
  tokens: number;
  marked: boolean;
  /** Hash of this block and every block before it. */
  prefix: string;
}

/** Sizes of one request as the cache model sees it. */
export interface RequestSizes {
  bytes: number;
  tokens: number;
  /** Read from the cache. */
  cachedBytes: number;
  cachedTokens: number;
  /** Marks in the request (providers allow 4). */
  marks: number;
}

// biome-ignore lint/suspicious/noExplicitAny: request bodies are untyped JSON
type Json = any;

function isMarked(v: Json): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if ('cache_control' in v) return true;
  return (
    Array.isArray(v.content) &&
    v.content.some((p: Json) => typeof p === 'object' && p && 'cache_control' in p)
  );
}

/**
 * A block as the provider's cache key sees it: without its mark (marks move; the content is the
 * key) and with a content of text parts read as the string they hold (a marked message goes out
 * as parts, the same message unmarked as a string: the same prompt text).
 */
function keyed(block: Json): Json {
  const plain = JSON.parse(JSON.stringify(block, (k, v) => (k === 'cache_control' ? undefined : v)));
  if (Array.isArray(plain.content) && plain.content.every((p: Json) => p?.type === 'text')) {
    plain.content = plain.content.map((p: Json) => p.text).join('');
  }
  return plain;
}

/** The blocks of a body: each tool, each system part (or the flat system text), each other message. */
function blocksOf(body: Json): Block[] {
  const raw: Json[] = [...(body.tools ?? [])];
  for (const m of body.messages ?? []) {
    if (m.role === 'system' && Array.isArray(m.content)) raw.push(...m.content);
    else raw.push(m);
  }
  const hash = createHash('sha256');
  return raw.map((b) => {
    const text = JSON.stringify(keyed(b));
    hash.update(text);
    return {
      bytes: Buffer.byteLength(text),
      tokens: countTokens(text),
      marked: isMarked(b),
      prefix: hash.copy().digest('hex'),
    };
  });
}

/** Sizes of a body outside the cache model: bytes and tokens of its whole JSON text. */
export function sizeOf(value: unknown): { bytes: number; tokens: number } {
  const text = JSON.stringify(value);
  return { bytes: Buffer.byteLength(text), tokens: countTokens(text) };
}

/** A provider's cache over a run of requests, oldest first. */
export class MarkCache {
  private readonly entries = new Set<string>();

  /** Sizes of `body`, then the entries its marks write. */
  send(body: Json): RequestSizes {
    const blocks = blocksOf(body);
    const marks = blocks.flatMap((b, i) => (b.marked ? [i] : []));
    let hit = -1;
    for (const m of marks) {
      for (let i = m; i >= 0 && i >= m - LOOKBACK; i--) {
        if (this.entries.has(blocks[i].prefix)) {
          hit = Math.max(hit, i);
          break;
        }
      }
    }
    for (const m of marks) this.entries.add(blocks[m].prefix);
    const sum = (bs: Block[], k: 'bytes' | 'tokens') => bs.reduce((a, b) => a + b[k], 0);
    const cached = blocks.slice(0, hit + 1);
    return {
      bytes: sum(blocks, 'bytes'),
      tokens: sum(blocks, 'tokens'),
      cachedBytes: sum(cached, 'bytes'),
      cachedTokens: sum(cached, 'tokens'),
      marks: marks.length,
    };
  }
}
