/**
 * MCP clients refuse a tool result over their own limit (Claude Desktop: 1 MiB, "result exceeds
 * maximum length of 1048576"), leaving the assistant with nothing to act on. A card whose rows
 * come to more than that is read with read_manifest as an isError result RESULT_TOO_LARGE, a few
 * hundred bytes, saying how large it was and to page with read_manifest_rows; the same card in
 * pages, and a small card whole, come back as before. Reading that card as a resource is refused
 * alike (-32602, RESULT_TOO_LARGE). Driven by the SDK's client over HTTP and over stdio.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertDistBuilt } from '../helpers/child-server.js';
import { repoRoot } from '../helpers/sandbox-home.js';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'mcp-result-size-token';
const card = (id: string) =>
  `${JSON.stringify({
    $schema: 'klebb.datafile.v1',
    meta: {
      id,
      label: id,
      writeable: { fromWebapp: true, inputs: [{ key: 'note', label: 'Note', type: 'text' }] },
    },
  })}\n`;
// 12 000 rows with a note each: about 1.6 MB of rows, and more once escaped inside the result
const rows = Array.from({ length: 12_000 }, (_, i) => ({
  date: new Date(Date.UTC(1990, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
  note: `slept badly, "woke" at 4 — day ${i}`.padEnd(100, '.'),
}));

let s: TestServer;
beforeAll(async () => {
  s = await startServer({
    env: { AGENT_API_TOKEN: T },
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'diary.json'), card('diary'));
      fs.writeFileSync(path.join(dataDir, 'small.json'), card('small'));
    },
  });
  expect((await s.api('/api/manifests/diary/data', { json: { data: rows } })).status).toBe(200);
  expect((await s.api('/api/manifests/small/data', { json: { data: rows.slice(0, 3) } })).status).toBe(200);
}, 60_000);
afterAll(async () => s?.close());

/** Calls the tool; the result's text parsed and the bytes of the whole result. */
async function call(client: Client, name: string, args: Record<string, unknown>) {
  const r = (await client.callTool({ name, arguments: args })) as {
    content: { text: string }[];
    isError?: boolean;
  };
  return {
    isError: r.isError === true,
    body: JSON.parse(r.content[0].text),
    bytes: JSON.stringify(r).length,
  };
}

async function checkClient(client: Client) {
  const big = await call(client, 'read_manifest', { id: 'diary' });
  expect(big.isError).toBe(true);
  expect(big.body.code).toBe('RESULT_TOO_LARGE');
  expect(big.body.error).toContain('read_manifest_rows');
  expect(big.body.error).toMatch(/is \d+\.\d MB/);
  expect(big.bytes).toBeLessThan(2000);
  const page = await call(client, 'read_manifest_rows', { id: 'diary', limit: 1000, offset: 1000 });
  expect(page.isError).toBe(false);
  expect(JSON.stringify(page.body)).toContain('day 10999');
  const small = await call(client, 'read_manifest', { id: 'small' });
  expect(small.isError).toBe(false);
  expect(small.body.data).toHaveLength(3);
  // the card as a resource: refused the same way, as the JSON-RPC error of resources/read
  const err = await client.readResource({ uri: 'klebb://cards/diary' }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  expect((err as McpError).code).toBe(-32602);
  expect((err as McpError).message).toContain('read_manifest_rows');
  expect((err as McpError).data).toMatchObject({ code: 'RESULT_TOO_LARGE', uri: 'klebb://cards/diary' });
  const res = await client.readResource({ uri: 'klebb://cards/small' });
  expect(JSON.parse((res.contents[0] as { text: string }).text).data).toHaveLength(3);
}

describe('a tool result larger than an MCP client takes', () => {
  it('is RESULT_TOO_LARGE naming the paged tool, over HTTP', { timeout: 60_000 }, async () => {
    const client = new Client({ name: 't', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${T}` } },
      }),
    );
    await checkClient(client);
    await client.close();
  });

  it('is RESULT_TOO_LARGE over stdio too', { timeout: 60_000 }, async () => {
    assertDistBuilt();
    const client = new Client({ name: 't', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(repoRoot, 'dist/src/mcp/stdio.js')],
        env: { PATH: process.env.PATH ?? '', HEALTH_HOME: s.home, KLEBB_LOG_LEVEL: 'silent' },
        stderr: 'ignore',
      }),
    );
    await checkClient(client);
    await client.close();
  });
});
