/**
 * `GET /api/openapi.json`: an OpenAPI 3.1 document generated from the route schemas. It is
 * public, valid (checked by a real validator), covers every route the server registers (but the
 * web app's files and pages, named in HIDDEN_ROUTES) and every route docs/API.md lists, and a
 * client generated from it (openapi-typescript + openapi-fetch) type-checks and talks to the real
 * server.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errors.js';
import { HIDDEN_ROUTES } from '../../src/http/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const T = 'openapi-test-token-0123456789';

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
  components: { schemas: Record<string, { properties: { code: { enum: string[] } } }> };
};

/** `/api/manifests/:id/rows` → `/api/manifests/{id}/rows` (how OpenAPI writes a path parameter). */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * Whether the document has `method url`, where a literal part of a documented url may be a
 * parameter of the route (`…/:metric/dismiss` is the route `…/{metric}/{action}`).
 */
function documented(doc: Doc, method: string, url: string): boolean {
  const want = openApiPath(url).split('/');
  return Object.entries(doc.paths).some(([p, ops]) => {
    const have = p.split('/');
    return (
      ops[method.toLowerCase()] !== undefined &&
      have.length === want.length &&
      have.every((part, i) => part === want[i] || /^\{.+\}$/.test(part))
    );
  });
}

describe('the OpenAPI document', () => {
  let s: TestServer;
  let doc: Doc;
  beforeAll(async () => {
    s = await startServer({ env: { AGENT_API_TOKEN: T, KLEBB_TRUST_LOOPBACK: '0' } });
    const r = await s.api('/api/openapi.json');
    expect(r.status).toBe(200);
    doc = r.body;
  });
  afterAll(async () => {
    await s.close();
  });

  it('is public, OpenAPI 3.1, and valid for a real validator', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('covers every route the server registers, but the hidden ones', () => {
    const missing: string[] = [];
    for (const r of s.app.routeTable) {
      if (HIDDEN_ROUTES[`${r.method} ${r.url}`]) continue;
      const op = doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()];
      if (!op) missing.push(`${r.method} ${r.url}`);
    }
    expect(missing).toEqual([]);
    // the hidden ones are really not in it, and each is named with its reason
    for (const [route, reason] of Object.entries(HIDDEN_ROUTES)) {
      const [method, url] = route.split(' ');
      expect(doc.paths[openApiPath(url)]?.[method.toLowerCase()], route).toBeUndefined();
      expect(reason.length).toBeGreaterThan(5);
    }
  });

  it('covers every route of the route summary in docs/API.md', () => {
    const api = fs.readFileSync(path.join(ROOT, 'docs/API.md'), 'utf8');
    const start = api.indexOf('\n## Route summary');
    const table = api.slice(start, api.indexOf('\n## ', start + 5));
    const missing: string[] = [];
    let rows = 0;
    for (const m of table.matchAll(/^\| ([A-Z, ]+) \| ((?:`[^`]+`(?:, )?)+) \|/gm)) {
      let previous = '';
      for (const [, p] of m[2].matchAll(/`([^`?]+)[^`]*`/g)) {
        // "`/api/reports/:name/source`, `/text`" names a sibling by its last part
        const url = p.split('/').length === 2 && previous ? previous.replace(/\/[^/]+$/, p) : p;
        previous = url;
        for (const method of m[1].split(',').map((x) => x.trim())) {
          rows++;
          if (!documented(doc, method, url)) missing.push(`${method} ${url}`);
        }
      }
    }
    expect(rows).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });

  it('gives every operation its error statuses with the shared Error component', () => {
    const error = doc.components.schemas.Error;
    expect(error.properties.code.enum.sort()).toEqual(Object.keys(ERROR_CODES).sort());
    const rows = doc.paths['/api/manifests/{id}/rows'];
    expect(Object.keys(rows.post.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '404', '409', '412', '422']),
    );
    const bad = rows.post.responses['400'].content?.['application/json'].schema;
    expect(bad).toEqual({ $ref: '#/components/schemas/Error' });
    expect(Object.keys(doc.paths['/healthz'].get.responses)).not.toContain('401');
  });
});

describe('a client generated from the document', () => {
  let s: TestServer;
  let dir: string;
  beforeAll(async () => {
    s = await startServer({ env: { AGENT_API_TOKEN: T, KLEBB_TRUST_LOOPBACK: '0' } });
    // inside the repository, so the client resolves openapi-fetch from its node_modules
    fs.mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
    dir = fs.mkdtempSync(path.join(ROOT, '.tmp', 'openapi-client-'));
  });
  afterAll(async () => {
    await s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // generating the types and running tsc take a while on a busy machine
  it('type-checks and makes real calls: create a card, append and read rows, a 404 and a 400', {
    timeout: 240_000,
  }, async () => {
    fs.writeFileSync(path.join(dir, 'openapi.json'), (await s.api('/api/openapi.json')).text);
    execFileSync(
      process.execPath,
      [
        '--import',
        path.join(ROOT, 'test/helpers/typescript5-hook.mjs'),
        path.join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'),
        path.join(dir, 'openapi.json'),
        '-o',
        path.join(dir, 'schema.d.ts'),
      ],
      { cwd: ROOT, stdio: 'pipe' },
    );
    fs.writeFileSync(path.join(dir, 'client.ts'), CLIENT);
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['es2022', 'dom'],
          types: [],
          skipLibCheck: true,
        },
        files: ['client.ts'],
      }),
    );
    // a type error in the generated types or the client fails here with tsc's output
    try {
      execFileSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', dir], { cwd: ROOT, stdio: 'pipe' });
    } catch (err) {
      throw new Error(`tsc: ${(err as { stdout?: Buffer }).stdout?.toString()}`);
    }
    const client = await import(pathToFileURL(path.join(dir, 'client.ts')).href);
    const r = await client.run(s.url, T);
    expect(r.created).toMatchObject({ ok: true, id: 'weight' });
    expect(r.appended).toMatchObject({ ok: true, added: 1 });
    expect(r.rows).toMatchObject({ total: 1, rows: [{ date: '2026-04-20', kg: 80 }] });
    expect(r.missing).toEqual({ status: 404, code: 'CARD_NOT_FOUND' });
    expect(r.bad.status).toBe(400);
    expect(r.bad.code).toBe('BAD_REQUEST');
    expect(r.bad.details).toEqual([{ path: 'body.value', message: 'is required' }]);
    // the client wrote through the real server
    expect((await s.api('/api/manifests/weight/data', { token: T })).body.data).toEqual([
      { date: '2026-04-20', kg: 80 },
    ]);
  });
});

/** The client: typed calls only; the 400 is a call the types themselves refuse. */
const CLIENT = `
import createClient from 'openapi-fetch';
import type { components, paths } from './schema.js';

type ApiError = components['schemas']['Error'];

export async function run(baseUrl: string, token: string) {
  const api = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${token}\` } });
  const id = { path: { id: 'weight' } };
  const created = await api.POST('/api/manifests', {
    body: {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'weight', label: 'Weight', writeable: { fromWebapp: true } },
      data: [],
    },
  });
  const appended = await api.POST('/api/manifests/{id}/rows', {
    params: id,
    body: { value: { date: '2026-04-20', kg: 80 } },
  });
  const rows = await api.GET('/api/manifests/{id}/rows', { params: { ...id, query: { limit: 5, order: 'asc' } } });
  const missing = await api.GET('/api/manifests/{id}', { params: { path: { id: 'nope' } } });
  const missingError: ApiError | undefined = missing.error;
  // @ts-expect-error: value is required by the schema, so the types refuse this body too
  const bad = await api.POST('/api/manifests/{id}/rows', { params: id, body: { path: '' } });
  const badError: ApiError | undefined = bad.error;
  return {
    created: created.data,
    appended: appended.data,
    rows: rows.data,
    missing: { status: missing.response.status, code: missingError?.code },
    bad: { status: bad.response.status, code: badError?.code, details: badError?.details },
  };
}
`;
