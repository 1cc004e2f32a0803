/**
 * A tools/call naming a tool that does not exist is answered with the JSON-RPC error MCP
 * specifies for it, -32602 (invalid params) naming the tool with `data.code` UNKNOWN_TOOL, over
 * HTTP and through the SDK's client, instead of a tool result marked isError; a tool that exists
 * but fails still answers a result marked isError.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'mcp-unknown-tool-token';
let s: TestServer;
beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
});
afterAll(async () => {
  await s.close();
});

describe('a tools/call naming no tool', () => {
  it('is the JSON-RPC error -32602 naming it; a failing known tool stays an isError result', async () => {
    const client = new Client({ name: 't', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${T}` } },
      }),
    );
    const err = await client.callTool({ name: 'no_such_tool', arguments: {} }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(-32602);
    expect((err as McpError).message).toContain('no_such_tool');
    expect((err as McpError).data).toEqual({ code: 'UNKNOWN_TOOL', name: 'no_such_tool' });
    const failed = await client.callTool({ name: 'read_manifest_meta', arguments: { id: 'nope' } });
    expect(failed.isError).toBe(true);
    await client.close();
  });
});
