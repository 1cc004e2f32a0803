/**
 * Claude's extended thinking as LiteLLM (and proxies built like it) relays it: `thinking_blocks`,
 * a list of `{type: "thinking", thinking, signature}` and `{type: "redacted_thinking", data}`
 * beside `reasoning_content`. Anthropic refuses the next request of a tool loop unless the
 * assistant message that called tools carries its signed thinking again, so the blocks go back
 * unchanged. In a stream they arrive in pieces without an index: each piece's `thinking` text
 * continues the open block of its type, a `signature` (often in a piece of its own with empty
 * text) closes it, and a redacted block is whole.
 */

/** One thinking block as the gateway sent it. */
export type ThinkingBlock = Record<string, unknown>;

/** The object items of a `thinking_blocks` value; [] when it is absent or not an array. */
export function readThinkingBlocks(value: unknown): ThinkingBlock[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is ThinkingBlock => typeof v === 'object' && v !== null && !Array.isArray(v));
}

/** The readable text of thinking blocks (never a redacted block's data). */
export function thinkingBlocksText(blocks: readonly ThinkingBlock[]): string {
  return blocks
    .map((b) => (b.type === 'thinking' && typeof b.thinking === 'string' ? b.thinking : ''))
    .join('');
}

/** Joins streamed thinking-block pieces into whole blocks. */
export interface ThinkingBlocksJoiner {
  add(pieces: readonly ThinkingBlock[]): void;
  /** The whole blocks so far, in order. */
  blocks(): ThinkingBlock[];
}

/** Creates a joiner (see the top of this file for how pieces join). */
export function createThinkingBlocksJoiner(): ThinkingBlocksJoiner {
  const list: ThinkingBlock[] = [];
  let open: ThinkingBlock | undefined; // a thinking block whose signature has not come yet
  return {
    add(pieces) {
      for (const piece of pieces) {
        if (piece.type !== 'thinking') {
          list.push({ ...piece });
          open = undefined;
          continue;
        }
        if (!open) {
          open = { type: 'thinking', thinking: '' };
          list.push(open);
        }
        if (typeof piece.thinking === 'string') open.thinking = `${open.thinking ?? ''}${piece.thinking}`;
        for (const [key, value] of Object.entries(piece)) {
          if (key === 'type' || key === 'thinking' || value === null || value === undefined) continue;
          open[key] = value;
        }
        if (typeof piece.signature === 'string' && piece.signature !== '') open = undefined;
      }
    },
    blocks: () => list.map((b) => ({ ...b })),
  };
}
