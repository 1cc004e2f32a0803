/**
 * The MCP server through the SDK's own client, over Streamable HTTP (`/mcp`, bearer tokens) and
 * over stdio (`node dist/src/mcp/stdio.js` with HEALTH_HOME): the tools are the chat's, a
 * read-only token sees only the read tools, append_row writes a row (one change set by
 * `mcp:<who>`), the cards are resources, and a destructive call without a way to ask the person
 * changes nothing.
 */
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WATCH_DEBOUNCE_MS } from '../../src/cards/card-watcher.js';
import { WATCH_SETTLE_MS } from '../../src/limits.js';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'mcp-test-token';
let s: TestServer;
beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  await s.api('/api/manifests', {
    token: T,
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'weight', label: 'Weight', writeable: { fromWebapp: true } },
      data: [],
    },
  });
});
afterAll(async () => {
  await s.close();
});

async function httpClient(token: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

const text = (r: object) => JSON.parse(((r as { content?: unknown }).content as { text: string }[])[0].text);

describe('MCP over Streamable HTTP', () => {
  it('lists the chat tools, appends a row, reads a card resource', async () => {
    const client = await httpClient(T);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('append_row');
    expect(tools).toContain('delete_manifest');
    const r = await client.callTool({
      name: 'append_row',
      arguments: { id: 'weight', value: { date: '2026-04-20', kg: 80 } },
    });
    expect(r.isError).toBe(false);
    expect(text(r)).toMatchObject({ ok: true, added: 1, totalAfter: 1 });
    expect((await s.api('/api/changes?limit=1', { token: T })).body.changeSets[0]).toMatchObject({
      actor: 'mcp:agent-token',
      summary: 'Added 1 row to Weight',
    });
    const resources = (await client.listResources()).resources;
    expect(resources.map((x) => x.uri)).toContain('klebb://cards/weight');
    const read = await client.readResource({ uri: 'klebb://cards/weight' });
    expect(JSON.parse((read.contents[0] as { text: string }).text).data).toEqual([
      { date: '2026-04-20', kg: 80 },
    ]);
    // no elicitation in this client: a destructive call cannot be approved, nothing changes
    const del = await client.callTool({ name: 'delete_manifest', arguments: { id: 'weight' } });
    expect(del.isError).toBe(true);
    expect(text(del).code).toBe('APPROVAL_REQUIRED');
    expect((await s.api('/api/manifests/weight', { token: T })).status).toBe(200);
    await client.close();
  });

  it('a read-only token sees only the read tools and cannot call a write', async () => {
    const { secret } = s.inst.auth.tokens.create('reader', 'read');
    const client = await httpClient(secret);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('read_manifest_rows');
    expect(tools).not.toContain('append_row');
    const r = await client.callTool({
      name: 'append_row',
      arguments: { id: 'weight', value: { date: '2026-04-21' } },
    });
    expect(r.isError).toBe(true);
    expect(text(r).code).toBe('READ_ONLY_TOKEN');
    await client.close();
  });

  it('before the first passkey exists, this machine may connect without a token', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
    const r = await client.callTool({
      name: 'append_row',
      arguments: { id: 'weight', value: { date: '2026-04-19', kg: 79 } },
    });
    expect(r.isError).toBe(false);
    expect((await s.api('/api/changes?limit=1', { token: T })).body.changeSets[0].actor).toBe('mcp:local');
    await client.close();
  });

  it('refuses a wrong token', async () => {
    const r = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer wrong' },
      body: '{}',
    });
    expect(r.status).toBe(401);
  });
});

describe('MCP approvals by elicitation', () => {
  it('a destructive call asks the client: decline keeps the card, accept deletes it', async () => {
    await s.api('/api/manifests', {
      token: T,
      json: {
        $schema: 'klebb.datafile.v1',
        meta: { id: 'temp', label: 'Temp', writeable: { fromWebapp: true } },
        data: [],
      },
    });
    const asked: string[] = [];
    let answer: 'accept' | 'decline' = 'decline';
    const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(String(req.params.message));
      return { action: answer, content: {} };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${T}` } },
      }),
    );
    const no = await client.callTool({ name: 'delete_manifest', arguments: { id: 'temp' } });
    expect(text(no)).toMatchObject({ approved: false, decision: 'declined' });
    expect(asked).toEqual(['Delete the card “Temp”. Approve?']);
    expect((await s.api('/api/manifests/temp', { token: T })).status).toBe(200);
    answer = 'accept';
    const yes = await client.callTool({ name: 'delete_manifest', arguments: { id: 'temp' } });
    expect(text(yes)).toMatchObject({ ok: true, removed: true });
    expect((await s.api('/api/manifests/temp', { token: T })).status).toBe(404);
    await client.close();
  });
});

describe('MCP over stdio', () => {
  it('npm run mcp serves the same tools and resources from HEALTH_HOME', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.resolve('dist/src/mcp/stdio.js')],
        env: { HEALTH_HOME: s.home, KLEBB_LOG_LEVEL: 'silent', PATH: process.env.PATH ?? '' },
        stderr: 'pipe',
      }),
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('append_row');
    const r = await client.callTool({
      name: 'append_row',
      arguments: { id: 'weight', value: { date: '2026-04-22', kg: 81 } },
    });
    expect(text(r)).toMatchObject({ ok: true, added: 1 });
    const read = await client.readResource({ uri: 'klebb://cards/weight' });
    expect(JSON.parse((read.contents[0] as { text: string }).text).data.at(-1)).toEqual({
      date: '2026-04-22',
      kg: 81,
    });
    await client.close();
  });
});

/** A stdio MCP client on the test server's home (a second Klebb process), answering approvals with yes. */
async function stdioClient(): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: {} }));
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.resolve('dist/src/mcp/stdio.js')],
      env: { HEALTH_HOME: s.home, KLEBB_LOG_LEVEL: 'silent', PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    }),
  );
  return client;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Long enough for the running server's watcher to have judged a file another process wrote or removed. */
const WATCHER_QUIET_MS = WATCH_SETTLE_MS + WATCH_DEBOUNCE_MS + 500;

describe('MCP over stdio beside the running server', () => {
  // the server's watcher sees the stdio process's file writes: they were recorded there already
  it('a manifest change or a deletion is one change set, and it can be undone', {
    timeout: 60_000,
  }, async () => {
    await s.api('/api/manifests', {
      token: T,
      json: {
        $schema: 'klebb.datafile.v1',
        meta: { id: 'u1', label: 'U1', writeable: { fromWebapp: true } },
      },
    });
    const client = await stdioClient();
    const latest = async () => (await s.api('/api/changes?limit=2', { token: T })).body.changeSets;
    for (const call of [
      { name: 'hide_card', arguments: { id: 'u1' } },
      { name: 'patch_manifest', arguments: { id: 'u1', patch: { meta: { label: 'U one' } } } },
      { name: 'delete_manifest', arguments: { id: 'u1' } },
    ]) {
      const r = await client.callTool(call);
      expect(r.isError, JSON.stringify(r)).toBe(false);
      await sleep(WATCHER_QUIET_MS);
      const [set] = await latest();
      expect(set).toMatchObject({ actor: 'mcp:stdio', cards: ['u1'] });
      const undo = await s.api(`/api/changes/${set.id}/undo`, { token: T, method: 'POST' });
      expect(undo.status, JSON.stringify(undo.body)).toBe(200);
      await sleep(WATCHER_QUIET_MS);
      // the undo is the newest set: nothing recorded the stdio write a second time
      const [after, before] = await latest();
      expect(after.undoOf).toBe(set.id);
      expect(before.id).toBe(set.id);
      expect((await s.api('/api/manifests/u1', { token: T })).status).toBe(200);
    }
    await client.close();
  });
});

/**
 * A stdio MCP process on the test server's home spoken to in raw JSON-RPC lines (a client
 * library would turn 1e999 into null before sending it); `ask` sends one request text and
 * resolves with the answer of that id.
 */
/** A JSON-RPC answer as the raw stdio test reads it. */
interface RpcAnswer {
  id: number;
  result?: { isError?: boolean; content: { text: string }[] };
  error?: { code: number; message: string; data?: unknown };
}

async function rawStdio() {
  const proc = spawn(process.execPath, [path.resolve('dist/src/mcp/stdio.js')], {
    env: { HEALTH_HOME: s.home, KLEBB_LOG_LEVEL: 'silent', PATH: process.env.PATH ?? '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const waiting = new Map<number, (m: RpcAnswer) => void>();
  let buf = '';
  proc.stdout.on('data', (chunk: Buffer) => {
    buf += chunk.toString('utf8');
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const m = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      waiting.get(m.id)?.(m);
    }
  });
  const ask = (id: number, text: string) =>
    new Promise<RpcAnswer>((resolve) => {
      waiting.set(id, resolve);
      proc.stdin.write(`${text}\n`);
    });
  await ask(
    1,
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  );
  proc.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  const close = () =>
    new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.stdin.end();
    });
  return { ask, close };
}

const appendRaw = (id: number, value: string) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"append_row","arguments":{"id":"weight","value":{"date":"2026-05-01","kg":${value}}}}}`;

/** Numbers JavaScript would not keep as written, as REST refuses them in a body. */
const REFUSED = ['1e999', '9007199254740993', '-1e999', '0.1000000000000000055511151231257827'];

describe('MCP numbers and unknown resources', () => {
  it('over stdio, the request text is checked like a REST body: 1e300 is kept, a number JavaScript cannot keep is a JSON-RPC error naming it, and nothing is stored', async () => {
    const before = (await s.api('/api/manifests/weight/data', { token: T })).body.data.length;
    const raw = await rawStdio();
    for (const [i, n] of REFUSED.entries()) {
      const r = await raw.ask(10 + i, appendRaw(10 + i, n));
      expect(r.error, JSON.stringify(r)).toMatchObject({
        code: -32602,
        data: { code: 'NUMBER_OUT_OF_RANGE', details: [{ path: 'params.arguments.value.kg' }] },
      });
      expect(r.error?.message).toContain(n);
    }
    expect((await s.api('/api/manifests/weight/data', { token: T })).body.data.length).toBe(before);
    // a large number JavaScript keeps exactly is stored, as REST stores it
    const big = await raw.ask(15, appendRaw(15, '1e300'));
    expect(big.result?.isError, JSON.stringify(big)).toBe(false);
    const unknown = await raw.ask(
      20,
      '{"jsonrpc":"2.0","id":20,"method":"resources/read","params":{"uri":"klebb://cards/nope"}}',
    );
    expect(unknown.error).toMatchObject({ code: -32002, data: { uri: 'klebb://cards/nope' } });
    await raw.close();
    const after = (await s.api('/api/manifests/weight/data', { token: T })).body.data;
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1).kg).toBe(1e300);
  });

  it('over HTTP, such a number is a JSON-RPC error (HTTP 400), 1e300 is kept, and nothing else is stored', async () => {
    const before = (await s.api('/api/manifests/weight/data', { token: T })).body.data.length;
    const post = (body: string) =>
      fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${T}`,
        },
        body,
      });
    for (const n of REFUSED) {
      const r = await post(appendRaw(1, n));
      expect(r.status).toBe(400);
      const body = await r.json();
      expect(body).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32602 } });
      expect(body.error.message).toContain(n);
      expect(body.error.data).toMatchObject({
        code: 'NUMBER_OUT_OF_RANGE',
        details: [{ path: 'body.params.arguments.value.kg' }],
      });
    }
    const broken = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${T}` },
      body: '{"jsonrpc":',
    });
    expect(broken.status).toBe(400);
    expect((await broken.json()).error.code).toBe(-32700);
    expect((await s.api('/api/manifests/weight/data', { token: T })).body.data.length).toBe(before);
    const client = await httpClient(T);
    // the SDK client sends 1e300 as written (JSON.stringify keeps it): stored as it is
    const big = await client.callTool({
      name: 'append_row',
      arguments: { id: 'weight', value: { date: '2026-05-02', kg: 1e300 } },
    });
    expect(big.isError, JSON.stringify(big)).toBe(false);
    await client.close();
    const after = (await s.api('/api/manifests/weight/data', { token: T })).body.data;
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toEqual({ date: '2026-05-02', kg: 1e300 });
  });

  it('reading an unknown card resource is "resource not found" (-32002) with the uri', async () => {
    const client = await httpClient(T);
    const err = await client.readResource({ uri: 'klebb://cards/nope' }).then(
      () => undefined,
      (e: unknown) => e as { code: number; data: unknown },
    );
    expect(err?.code).toBe(-32002);
    expect(err?.data).toEqual({ uri: 'klebb://cards/nope' });
    await client.close();
  });
});

describe('MCP Inspector CLI', () => {
  const inspector = (...args: string[]) =>
    new Promise<unknown>((resolve, reject) => {
      execFile(
        path.resolve('node_modules/.bin/mcp-inspector'),
        [
          '--cli',
          '-e',
          `HEALTH_HOME=${s.home}`,
          process.execPath,
          path.resolve('dist/src/mcp/stdio.js'),
          ...args,
        ],
        { timeout: 60_000 },
        (err, stdout, stderr) =>
          err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
      );
    });

  // the Inspector's CLI sends every --tool-arg as a string: a card of text rows takes one as it is
  it('lists the tools, calls append_row and reads a card resource', { timeout: 120_000 }, async () => {
    await s.api('/api/manifests', {
      token: T,
      json: {
        $schema: 'klebb.datafile.v1',
        meta: { id: 'notes', label: 'Notes', writeable: { fromWebapp: true } },
        data: [],
      },
    });
    const tools = (await inspector('--method', 'tools/list')) as { tools: { name: string }[] };
    expect(tools.tools.map((t) => t.name)).toContain('append_row');
    const call = (await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'append_row',
      '--tool-arg',
      'id=notes',
      '--tool-arg',
      'value=Slept badly',
    )) as { content: { text: string }[]; isError: boolean };
    expect(call.isError).toBe(false);
    expect(JSON.parse(call.content[0].text)).toMatchObject({ ok: true, added: 1 });
    const read = (await inspector('--method', 'resources/read', '--uri', 'klebb://cards/notes')) as {
      contents: { text: string }[];
    };
    expect(JSON.parse(read.contents[0].text).data).toEqual(['Slept badly']);
  });
});

describe('MCP read_manifest_rows across pages', () => {
  it("a later page sent with the first page's version is refused once a row came in between", async () => {
    const client = await httpClient(T);
    const rows = Array.from({ length: 12 }, (_, i) => ({
      date: `2026-02-${String(i + 1).padStart(2, '0')}`,
      n: i,
    }));
    await s.api('/api/manifests', {
      token: T,
      json: {
        $schema: 'klebb.datafile.v1',
        meta: { id: 'paged', label: 'Paged', writeable: { fromWebapp: true } },
        data: rows,
      },
    });
    const first = await client.callTool({ name: 'read_manifest_rows', arguments: { id: 'paged', limit: 5 } });
    const v = text(first).version;
    expect(Number.isSafeInteger(v)).toBe(true);
    await s.api('/api/manifests/paged/rows', { token: T, json: { value: { date: '2026-02-13', n: 12 } } });
    const next = await client.callTool({
      name: 'read_manifest_rows',
      arguments: { id: 'paged', limit: 5, offset: 5, version: v },
    });
    expect(next.isError).toBe(true);
    expect(text(next).code).toBe('PRECONDITION_FAILED');
    await client.close();
  });
});
