import type { FastifySchema } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, newHttpApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { buildValidator } from '../../src/http/validation.js';
import { type Instance, openInstance } from '../../src/instance.js';
import { sandboxHome } from '../helpers/sandbox-home.js';

// Route checks are compiled on a route's first request, not at start-up, so a schema Ajv cannot
// compile would only show as a 500 on that route's first request. This compiles every check of
// the real app once, with the same compiler and shared schemas, so such a schema fails here.

type Part = 'body' | 'querystring' | 'params' | 'headers';
const PARTS: Part[] = ['body', 'querystring', 'params', 'headers'];

interface Declared {
  method: string;
  url: string;
  schema: FastifySchema;
}

let inst: Instance;
let box: ReturnType<typeof sandboxHome>;
const declared: Declared[] = [];
let shared: Record<string, unknown> = {};

beforeAll(async () => {
  box = sandboxHome();
  const config = loadConfig({
    HEALTH_HOME: box.home,
    PORT: '0',
    HOST: '127.0.0.1',
    KLEBB_LOG_LEVEL: 'silent',
  });
  inst = await openInstance(config, { watch: false });
  const app = newHttpApp(config);
  app.addHook('onRoute', (r) => {
    if (r.schema) declared.push({ method: [r.method].flat().join(','), url: r.url, schema: r.schema });
  });
  buildApp(inst, app);
  await app.ready();
  shared = app.getSchemas();
  await app.close();
});
afterAll(async () => {
  await inst?.close();
  box?.remove();
});

describe('route checks', () => {
  it('every route schema of the app compiles with the server’s validator compiler', () => {
    const checked: string[] = [];
    const failures: string[] = [];
    for (const route of declared) {
      for (const part of PARTS) {
        const schema = route.schema[part];
        if (!schema) continue;
        const compile = buildValidator(shared as Parameters<typeof buildValidator>[0]);
        const check = compile({ schema, method: route.method, url: route.url, httpPart: part } as Parameters<
          typeof compile
        >[0]);
        try {
          // the first call compiles; whether `{}` passes does not matter here
          check({});
          checked.push(`${route.method} ${route.url} ${part}`);
        } catch (err) {
          failures.push(`${route.method} ${route.url} ${part}: ${(err as Error).message}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // the app declares dozens of checked routes; an empty list would mean the hook saw nothing
    expect(checked.length).toBeGreaterThan(50);
  });
});
