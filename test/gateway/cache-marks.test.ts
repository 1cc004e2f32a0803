// The cache mark that moves with the conversation (docs/CHAT-AGENT.md "Prompt caching"), as the
// request builder places it: the newest message and the previous round-trip's newest, within the
// providers' limit of four marks, only when the system prompt asked for caching and the provider
// takes marks and content parts.
import { describe, expect, it } from 'vitest';
import { withMovingMarks } from '../../src/chat/gateway/cache-marks.js';
import { DEFAULT_CAPABILITIES } from '../../src/chat/gateway/provider-capabilities.js';
import { buildRequestBody } from '../../src/chat/gateway/request.js';
import type { ChatMessage } from '../../src/chat/gateway/types.js';
import { MAX_CACHE_MARKS } from '../../src/limits.js';

const mark = { type: 'ephemeral' } as const;
const cachedSystem: ChatMessage = {
  role: 'system',
  content: [
    { type: 'text', text: 'static', cache_control: mark },
    { type: 'text', text: 'cards', cache_control: mark },
    { type: 'text', text: 'today' },
  ],
};
const call = {
  id: 'abcde1234',
  type: 'function' as const,
  function: { name: 'list_manifests', arguments: '{}' },
};
const turn: ChatMessage[] = [
  cachedSystem,
  { role: 'user', content: 'how am I doing?' },
  { role: 'assistant', content: null, tool_calls: [call] },
  { role: 'tool', tool_call_id: 'abcde1234', content: '{"cards":[]}' },
];

/** Marks per message of a built body. */
// biome-ignore lint/suspicious/noExplicitAny: wire messages are untyped JSON
function marks(messages: any[]): number[] {
  return messages.map((m) =>
    Array.isArray(m.content) ? m.content.filter((p: object) => 'cache_control' in p).length : 0,
  );
}

describe('buildRequestBody', () => {
  const caps = { ...DEFAULT_CAPABILITIES, cacheControl: true };

  it('marks the newest message (a tool result becomes one text part) and the one before the newest assistant message', () => {
    const body = buildRequestBody({ messages: turn }, 'm', caps);
    expect(marks(body.messages)).toEqual([2, 1, 0, 1]);
    expect(body.messages[3].content).toEqual([{ type: 'text', text: '{"cards":[]}', cache_control: mark }]);
    expect(body.messages[1].content).toEqual([
      { type: 'text', text: 'how am I doing?', cache_control: mark },
    ]);
  });

  it('adds no mark when the system prompt carries none (caching off, or a side call)', () => {
    const flat: ChatMessage[] = [{ role: 'system', content: 'You are Klebb.' }, ...turn.slice(1)];
    const body = buildRequestBody({ messages: flat }, 'm', caps);
    expect(JSON.stringify(body)).not.toContain('cache_control');
    expect(body.messages[3].content).toBe('{"cards":[]}');
  });

  it('adds no mark for a provider without marks or one that needs string content', () => {
    for (const c of [DEFAULT_CAPABILITIES, { ...caps, systemContentString: true }]) {
      const body = buildRequestBody({ messages: turn }, 'm', c);
      expect(JSON.stringify(body.messages.slice(1))).not.toContain('cache_control');
      expect(body.messages[3].content).toBe('{"cards":[]}');
    }
  });
});

describe('withMovingMarks', () => {
  it(`never goes past ${MAX_CACHE_MARKS} marks with the system's own`, () => {
    const three = [
      {
        role: 'system',
        content: [1, 2, 3].map((n) => ({ type: 'text', text: `s${n}`, cache_control: mark })),
      },
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
      { role: 'user', content: 'c' },
    ];
    expect(marks(withMovingMarks(three))).toEqual([3, 0, 0, 1]);
  });

  it('takes marks off the parts a client sent and puts ours on the last part', () => {
    const sent = [
      { role: 'system', content: [{ type: 'text', text: 's', cache_control: mark }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'x', cache_control: mark },
          { type: 'text', text: 'y' },
        ],
      },
    ];
    const out = withMovingMarks(sent);
    expect(out[1].content).toEqual([
      { type: 'text', text: 'x' },
      { type: 'text', text: 'y', cache_control: mark },
    ]);
    // the input is left as it was
    expect((sent[1].content as object[])[0]).toHaveProperty('cache_control');
  });

  it('skips what cannot carry a mark: an assistant message, an empty text', () => {
    const msgs = [
      { role: 'system', content: [{ type: 'text', text: 's', cache_control: mark }] },
      { role: 'user', content: '' },
      { role: 'assistant', content: 'prefill' },
    ];
    expect(marks(withMovingMarks(msgs))).toEqual([1, 0, 0]);
  });
});
