/**
 * Structured reasoning items (`reasoning_details`, as OpenRouter sends them): an array of objects
 * typed `reasoning.text` (`text`), `reasoning.summary` (`summary`) or `reasoning.encrypted`
 * (`data`, an opaque blob), each with an `index` and sometimes `id`, `format` and `signature`.
 * Two uses: the readable ones give the reasoning text when no plain reasoning field came (the
 * encrypted ones are never shown); all of them go back unchanged on the assistant message of the
 * next request, because a reasoning model that called tools needs its own reasoning back to
 * continue where it stopped. In a stream, items arrive in pieces: pieces with the same `index`
 * are one item, their `text`, `summary` and `data` strings joined in order and their other
 * fields taken from the latest piece that has them.
 */

/** One reasoning item as the gateway sent it. */
export type ReasoningDetail = Record<string, unknown>;

/** Fields whose strings arrive in pieces and are joined; every other field is replaced. */
const JOINED = ['text', 'summary', 'data'] as const;

/** The object items of a `reasoning_details` value; [] when it is absent or not an array. */
export function readReasoningDetails(value: unknown): ReasoningDetail[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is ReasoningDetail => typeof v === 'object' && v !== null && !Array.isArray(v));
}

/** The readable text of reasoning items: `text` of text items, `summary` of summaries; never `data`. */
export function reasoningDetailsText(items: readonly ReasoningDetail[]): string {
  let out = '';
  for (const item of items) {
    if (item.type === 'reasoning.text' && typeof item.text === 'string') out += item.text;
    else if (item.type === 'reasoning.summary' && typeof item.summary === 'string') out += item.summary;
  }
  return out;
}

/** Joins streamed reasoning pieces into whole items. */
export interface ReasoningDetailsJoiner {
  add(pieces: readonly ReasoningDetail[]): void;
  /** The whole items so far, in order of first arrival. */
  items(): ReasoningDetail[];
}

/** Creates a joiner. A piece without a numeric `index` is an item of its own. */
export function createReasoningDetailsJoiner(): ReasoningDetailsJoiner {
  const list: ReasoningDetail[] = [];
  const byIndex = new Map<number, ReasoningDetail>();
  return {
    add(pieces) {
      for (const piece of pieces) {
        const index = typeof piece.index === 'number' ? piece.index : undefined;
        const item = index === undefined ? undefined : byIndex.get(index);
        if (!item) {
          const copy = { ...piece };
          list.push(copy);
          if (index !== undefined) byIndex.set(index, copy);
          continue;
        }
        for (const [key, value] of Object.entries(piece)) {
          if (value === null || value === undefined) continue;
          const joined = (JOINED as readonly string[]).includes(key);
          if (joined && typeof value === 'string' && typeof item[key] === 'string') item[key] += value;
          else item[key] = value;
        }
      }
    },
    items: () => list.map((item) => ({ ...item })),
  };
}
