import { describe, expect, it } from 'vitest';
import { createStreamAssembler } from './stream-assembler.js';

const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ object: 'chat.completion.chunk', choices, ...extra });

describe('stream assembler', () => {
  it('orders tool calls by index and reads choice 0 alone when a chunk carries several choices', () => {
    const a = createStreamAssembler();
    a.push(
      chunk([
        {
          index: 0,
          delta: { tool_calls: [{ index: 1, id: 'b', function: { name: 'second', arguments: '{"x"' } }] },
        },
        { index: 1, delta: { content: 'other choice' } },
      ]),
    );
    a.push(
      chunk([
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, id: 'a', function: { name: 'first', arguments: '{}' } }] },
        },
      ]),
    );
    a.push(
      chunk([
        {
          index: 0,
          delta: { tool_calls: [{ index: 1, function: { arguments: ':1}' } }] },
          finish_reason: 'tool_calls',
        },
      ]),
    );
    a.push(chunk([{ index: 1, delta: {}, finish_reason: 'stop' }]));
    const r = a.finish('eof');
    expect(r.text).toBe('');
    expect(r.toolCalls.map((c) => [c.providerId, c.name, c.arguments])).toEqual([
      ['a', 'first', '{}'],
      ['b', 'second', '{"x":1}'],
    ]);
  });
  it('[DONE] is recognised after trimming and ends normally even without finish_reason', () => {
    const a = createStreamAssembler();
    a.push(chunk([{ index: 0, delta: { content: 'x' } }]));
    expect(a.push(' [DONE] ')).toBe(true);
    expect(a.finish('done').text).toBe('x');
  });
  it('a JSON-looking event that does not parse is a parse error', () => {
    const a = createStreamAssembler();
    expect(() => a.push('{"choices":[')).toThrow(expect.objectContaining({ kind: 'parse' }));
  });
  it('reads text given as content parts', () => {
    const a = createStreamAssembler();
    a.push(
      chunk([{ index: 0, delta: { content: [{ type: 'text', text: 'parts' }] }, finish_reason: 'stop' }]),
    );
    expect(a.finish('eof').text).toBe('parts');
  });
});
