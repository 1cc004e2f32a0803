import { Type } from '@sinclair/typebox';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildValidator } from './validation.js';

type Route = Parameters<ReturnType<typeof buildValidator>>[0];

const route = (httpPart: string, schema: unknown): Route =>
  ({ schema, method: 'POST', url: '/x', httpPart }) as unknown as Route;

describe('route checks', () => {
  it('are compiled at their first call, not when the server starts', () => {
    // Ajv refuses this schema when it compiles it
    const broken = route('body', { type: 'string', format: 'no-such-format' });
    const check = buildValidator({})(broken);
    expect(() => check('x')).toThrow(/no-such-format/);
  });

  it('refuse with the compiled check’s errors, and coerce text but not bodies', () => {
    const compile = buildValidator({});
    const body = compile(route('body', Type.Object({ n: Type.Integer() })));
    expect(body({ n: '5' })).toBe(false);
    expect(body.errors?.[0]?.instancePath).toBe('/n');
    expect(body({ n: 5 })).toBe(true);
    expect(body.errors).toBeNull();

    const query = compile(route('querystring', Type.Object({ n: Type.Integer() })));
    const q = { n: '5' };
    expect(query(q)).toBe(true);
    expect(q.n).toBe(5);
  });

  it('read URL text as a number only when written in plain decimal digits', () => {
    const compile = buildValidator({});
    const query = compile(
      route(
        'querystring',
        Type.Object({
          n: Type.Optional(Type.Integer()),
          x: Type.Optional(Type.Number()),
          b: Type.Optional(Type.Boolean()),
          u: Type.Optional(Type.Union([Type.Integer(), Type.Literal('all')])),
        }),
      ),
    );
    const read = (q: Record<string, string>) => (query(q) ? q : null);
    expect(read({ n: '0', x: '-2.5', b: 'false', u: '7' })).toEqual({ n: 0, x: -2.5, b: false, u: 7 });
    expect(read({ n: '-3' })).toEqual({ n: -3 });
    expect(read({ u: 'all' })).toEqual({ u: 'all' });
    for (const n of [' ', '\t', '0x1', '0b1', '1e0', '1.0', '+1', '01', '-0', '1 ', '', 'Infinity'])
      expect(read({ n }), JSON.stringify(n)).toBeNull();
    for (const x of ['.5', '5.', '1e3', '0x1', '-0', '1_000']) expect(read({ x }), x).toBeNull();
    for (const b of ['1', 'TRUE', 'yes', '']) expect(read({ b }), b).toBeNull();
  });

  it('let an optional body be left out, and check one that is sent', () => {
    const check = buildValidator({})(route('body', Type.Optional(Type.Object({ n: Type.Integer() }))));
    expect(check(null)).toBe(true);
    expect(check({ n: 'x' })).toBe(false);
    expect(check.errors?.[0]?.instancePath).toBe('/n');
  });

  it('answer a refused request with 400 naming the field, in a real app', async () => {
    const app = Fastify({ schemaController: { compilersFactory: { buildValidator } } });
    app.post('/x', { schema: { body: Type.Object({ n: Type.Integer() }) } }, async () => ({ ok: true }));
    await app.ready();
    const bad = await app.inject({ method: 'POST', url: '/x', payload: { n: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('/n');
    const good = await app.inject({ method: 'POST', url: '/x', payload: { n: 1 } });
    expect(good.statusCode).toBe(200);
    await app.close();
  });
});
