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
