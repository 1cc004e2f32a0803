/**
 * A request whose params lack what MCP asks of them (`prompts/get` without `name`,
 * `resources/read` without `uri`, no params at all) is the caller's mistake: -32602 Invalid
 * params naming the field, with data {code: BAD_REQUEST, path}, and the session goes on. Before,
 * the answer was -32603 Internal error whose message was the schema checker's whole report.
 * Over HTTP with the SDK's own client, sending the requests as a loosely typed client would; over
 * stdio (npm run mcp) a tools/call without a tool name or with arguments that are not an object
 * too, as HTTP already answered it. A list (tools, resources, resource templates, prompts) asked for
 * with a cursor the server never gave (a foreign string, a number) is -32602 naming params.cursor,
 * over both transports, rather than a silent first page or -32603; without one it comes whole.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectStdioClient } from '../helpers/mcp-stdio-client.js';
import { type ApiResponse, startServer, type TestServer } from '../helpers/server.js';

const T = 'mcp-params-refused-token';
let s: TestServer;
beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
});
afterAll(async () => {
  await s.close();
});

/** The error `request` is answered with, or null when it is answered. */
async function refusal(client: Client, request: { method: string; params?: Record<string, unknown> }) {
  return client.request(request as never, z.object({}).loose()).then(
    () => null,
    (e: unknown) => e,
  );
}

describe('a request whose params do not fit', () => {
  it('is -32602 naming the field, and the session goes on', async () => {
    const client = new Client({ name: 'probe', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${T}` } },
      }),
    );
    try {
      for (const [request, path] of [
        [{ method: 'prompts/get', params: {} }, 'params.name'],
        [{ method: 'prompts/get' }, 'params'],
        [{ method: 'resources/read', params: { uri: 42 } }, 'params.uri'],
      ] as const) {
        const err = await refusal(client, request);
        expect(err, request.method).toBeInstanceOf(McpError);
        expect((err as McpError).code).toBe(-32602);
        expect((err as McpError).data).toEqual({ code: 'BAD_REQUEST', path });
        expect((err as McpError).message).toContain(path);
        expect((err as McpError).message).not.toContain('"code"');
      }
      const read = await client.readResource({ uri: 'klebb://cards/welcome' });
      expect(read.contents).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});

describe('over stdio', () => {
  it('a tools/call without a name or with arguments not an object is -32602 naming the field', async () => {
    const client = await connectStdioClient(s.home);
    try {
      for (const [request, path] of [
        [{ method: 'tools/call', params: {} }, 'params.name'],
        [{ method: 'tools/call', params: { name: 'list_manifests', arguments: 'x' } }, 'params.arguments'],
        [{ method: 'prompts/get', params: {} }, 'params.name'],
      ] as const) {
        const err = await refusal(client, request);
        expect(err, request.method).toBeInstanceOf(McpError);
        expect((err as McpError).code).toBe(-32602);
        expect((err as McpError).data).toEqual({ code: 'BAD_REQUEST', path });
        expect((err as McpError).message).not.toContain('"code"');
      }
      const r = await client.callTool({ name: 'list_manifests', arguments: {} });
      expect(r.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});

const LISTS = ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list'] as const;

/** Each list with a cursor Klebb never gave is -32602 naming params.cursor; without one it answers. */
async function cursorsRefused(client: Client): Promise<void> {
  for (const method of LISTS) {
    for (const cursor of ['eyJwYWdlIjoyfQ==', 42]) {
      const err = await refusal(client, { method, params: { cursor } });
      expect(err, `${method} ${cursor}`).toBeInstanceOf(McpError);
      expect((err as McpError).code).toBe(-32602);
      expect((err as McpError).data).toEqual({ code: 'BAD_REQUEST', path: 'params.cursor' });
      expect((err as McpError).message).toContain('params.cursor');
    }
    expect(await refusal(client, { method }), method).toBeNull();
    expect(await refusal(client, { method, params: {} }), method).toBeNull();
  }
  expect((await client.listTools()).tools.length).toBeGreaterThan(0);
}

describe('a list asked for with a cursor this server never gave', () => {
  it('is -32602 naming params.cursor over HTTP', async () => {
    const client = new Client({ name: 'probe', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${T}` } },
      }),
    );
    try {
      await cursorsRefused(client);
    } finally {
      await client.close();
    }
  });

  it('is -32602 naming params.cursor over stdio', async () => {
    const client = await connectStdioClient(s.home);
    try {
      await cursorsRefused(client);
    } finally {
      await client.close();
    }
  });
});

/** A raw POST to /mcp (in session `sid` when given): status and parsed answer. */
async function rawPost(json: unknown, sid?: string): Promise<Pick<ApiResponse, 'status' | 'body'>> {
  const r = await s.api('/mcp', {
    json,
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${T}`,
      ...(sid ? { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' } : {}),
    },
  });
  return { status: r.status, body: r.body ?? {} };
}

const INIT_PARAMS = {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'probe', version: '1' },
};

describe('a message whose params do not have the shape MCP gives them', () => {
  it('an initialize without its fields is -32602 naming the field, with the request id', async () => {
    for (const [params, path] of [
      [undefined, 'body.params'],
      [{ ...INIT_PARAMS, protocolVersion: 20250618 }, 'body.params.protocolVersion'],
      [{ protocolVersion: '2025-06-18' }, 'body.params.capabilities'],
      [{ ...INIT_PARAMS, clientInfo: { name: 'probe' } }, 'body.params.clientInfo.version'],
    ] as const) {
      const r = await rawPost({ jsonrpc: '2.0', id: 'init-1', method: 'initialize', params });
      expect(r.status, path).toBe(400);
      expect(r.body.id).toBe('init-1');
      expect(r.body.error.code).toBe(-32602);
      expect(r.body.error.message).toContain(path);
    }
    // a well-formed one still starts a session
    const ok = await rawPost({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT_PARAMS });
    expect(ok.status).toBe(200);
  });

  it('params that are not an object, or a _meta that is not one, are -32602 naming them, and the session goes on', async () => {
    const init = await s.api('/mcp', {
      json: { jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT_PARAMS },
      headers: { accept: 'application/json', authorization: `Bearer ${T}` },
    });
    const sid = init.headers.get('mcp-session-id') ?? '';
    expect(sid).not.toBe('');
    for (const [m, path] of [
      [{ method: 'tools/list', params: [] }, 'body.params'],
      [{ method: 'ping', params: { _meta: 5 } }, 'body.params._meta'],
      [
        { method: 'resources/read', params: { uri: 'klebb://cards/welcome', _meta: { progressToken: {} } } },
        'body.params._meta.progressToken',
      ],
    ] as const) {
      const r = await rawPost({ jsonrpc: '2.0', id: 7, ...m }, sid);
      expect(r.status, path).toBe(400);
      expect(r.body.id).toBe(7);
      expect(r.body.error.code).toBe(-32602);
      expect(r.body.error.message).toContain(path);
    }
    const list = await rawPost({ jsonrpc: '2.0', id: 8, method: 'tools/list' }, sid);
    expect(list.status).toBe(200);
    expect(list.body.result.tools.length).toBeGreaterThan(0);
  });
});

describe('over stdio, params that do not have the shape MCP gives them', () => {
  it('a _meta that is not an object, or a progress token that is neither string nor number, is -32602 naming it', async () => {
    const client = await connectStdioClient(s.home);
    try {
      for (const [request, path] of [
        [{ method: 'tools/list', params: { _meta: 5 } }, 'params._meta'],
        [{ method: 'ping', params: { _meta: { progressToken: {} } } }, 'params._meta.progressToken'],
      ] as const) {
        const err = await refusal(client, request);
        expect(err, request.method).toBeInstanceOf(McpError);
        expect((err as McpError).code).toBe(-32602);
        expect((err as McpError).data).toEqual({ code: 'BAD_REQUEST', path });
      }
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});
