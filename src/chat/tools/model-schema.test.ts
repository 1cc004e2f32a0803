import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { modelSchema } from './model-schema.js';
import { ALL_TOOLS } from './registry.js';

type Json = Parameters<typeof modelSchema>[0];

/** Values of every JSON kind, and the literals the tools' unions name. */
const PROBES: unknown[] = [
  null,
  true,
  false,
  0,
  1,
  -1,
  1.5,
  1000,
  1001,
  Number.MAX_SAFE_INTEGER,
  '',
  'asc',
  'desc',
  'daily',
  'weekly',
  'private',
  'public',
  'bug',
  'feature',
  'x',
  [],
  ['mon'],
  [1, 'a', true],
  {},
  { a: 1 },
];

describe('modelSchema', () => {
  it('writes a union of literals as an enum, and keeps the schema`s other keys', () => {
    const s = {
      description: 'd',
      anyOf: [
        { const: 'a', type: 'string' },
        { const: 'b', type: 'string' },
      ],
    };
    expect(modelSchema(s)).toEqual({ description: 'd', type: 'string', enum: ['a', 'b'] });
  });

  it('keeps a union whose members are not all literals of one type', () => {
    const mixed: Json = {
      anyOf: [
        { const: 'a', type: 'string' },
        { const: 1, type: 'number' },
      ],
    };
    const open: Json = {
      anyOf: [
        { const: 'a', type: 'string' },
        { type: 'string', minLength: 2 },
      ],
    };
    expect(modelSchema(mixed)).toEqual(mixed);
    expect(modelSchema(open)).toEqual(open);
  });

  it('accepts and refuses the same values as the full schema, property by property, for every tool', () => {
    const ajv = new Ajv({ strict: false });
    let compared = 0;
    for (const tool of ALL_TOOLS) {
      const full = JSON.parse(JSON.stringify(tool.parameters)) as { properties?: Record<string, Json> };
      const short = modelSchema(full as Json) as { properties?: Record<string, Json> };
      for (const [name, schema] of Object.entries(full.properties ?? {})) {
        const before = ajv.compile(schema as object);
        const after = ajv.compile(short.properties?.[name] as object);
        for (const probe of PROBES) {
          expect(after(probe), `${tool.name}.${name} on ${JSON.stringify(probe)}`).toBe(before(probe));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it('makes every tool definition shorter or the same', () => {
    const full = ALL_TOOLS.map((t) => JSON.stringify(t.parameters)).join('').length;
    const short = ALL_TOOLS.map((t) =>
      JSON.stringify(modelSchema(JSON.parse(JSON.stringify(t.parameters)))),
    ).join('').length;
    expect(short).toBeLessThan(full);
  });
});
