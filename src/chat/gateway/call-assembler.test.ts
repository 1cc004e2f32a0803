import { describe, expect, it } from 'vitest';
import { createCallAssembler } from './call-assembler.js';
import type { ToolFragment } from './chunk-normaliser.js';

function assemble(fragments: ToolFragment[]): Array<[string, unknown]> {
  const a = createCallAssembler();
  for (const f of fragments) a.add(f);
  return a.calls().map((c) => [c.name, c.arguments]);
}

describe('one id on several calls', () => {
  it('without indexes, a named fragment with other arguments after a whole call is a second call', () => {
    expect(
      assemble([
        { id: 'x', name: 'get_weather', args: '{"city":' },
        { id: 'x', args: '"Paris"}' },
        { id: 'x', name: 'get_weather', args: '{"city":' },
        { id: 'x', args: '"Rome"}' },
      ]),
    ).toEqual([
      ['get_weather', '{"city":"Paris"}'],
      ['get_weather', '{"city":"Rome"}'],
    ]);
  });

  it('the name restated with no arguments, or with the same ones, is the same call', () => {
    expect(
      assemble([
        { id: 'x', name: 'get_weather', args: '{"city":"Paris"}' },
        { id: 'x', name: 'get_weather', args: '' },
        { id: 'x', name: 'get_weather', args: '{"city": "Paris"}' },
      ]),
    ).toEqual([['get_weather', '{"city":"Paris"}']]);
  });

  it('the same call under two indexes is kept once; different ones stay two', () => {
    const call = (index: number, args: string): ToolFragment => ({
      index,
      id: 'r1',
      name: 'append_row',
      args,
    });
    expect(assemble([call(0, '{"id":"water"}'), call(1, '{"id": "water"}')])).toEqual([
      ['append_row', '{"id":"water"}'],
    ]);
    expect(assemble([call(0, '{"id":"water"}'), call(1, '{"id":"tea"}')])).toHaveLength(2);
  });
});
