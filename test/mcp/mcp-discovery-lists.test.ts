/**
 * The list requests MCP clients send on connecting whatever the server says it offers (Cline,
 * opencode and Continue ask for prompts and resource templates at once): answered with the
 * cards' URI template and an empty prompt list, never -32601 Method not found, which some of them
 * take for a failed server and drop it, tools and all. A prompt asked for by name is -32602
 * naming it. Over HTTP and over stdio (npm run mcp), with the SDK's own client, which sends
 * these requests without checking the server's capabilities, as those clients do.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStdioClient } from '../helpers/mcp-stdio-client.js';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'mcp-discovery-token';
let s: TestServer;
beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  const r = await s.api('/api/manifests', {
    token: T,
    json: { $schema: 'klebb.datafile.v1', meta: { id: 'weight', label: 'Weight' }, data: [] },
  });
  expect(r.status).toBe(201);
});
afterAll(async () => {
  await s.close();
});

/** What a client connecting the way Cline or opencode do asks first, and the answers. */
async function discover(client: Client): Promise<void> {
  expect((await client.listTools()).tools.map((t) => t.name)).toContain('append_row');
  expect((await client.listPrompts()).prompts).toEqual([]);
  const templates = (await client.listResourceTemplates()).resourceTemplates;
  expect(templates.map((t) => t.uriTemplate)).toEqual(['klebb://cards/{id}']);
  // the template names the resources resources/list gives
  const uris = (await client.listResources()).resources.map((r) => r.uri);
  expect(uris).toContain('klebb://cards/weight');
  const read = await client.readResource({ uri: templates[0].uriTemplate.replace('{id}', 'weight') });
  expect(JSON.parse(String((read.contents[0] as { text: string }).text)).meta.id).toBe('weight');

  const err = await client.getPrompt({ name: 'summarise' }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  expect((err as McpError).code).toBe(-32602);
  expect((err as McpError).data).toEqual({ code: 'UNKNOWN_PROMPT', name: 'summarise' });
  // the session is still good after all of it
  const r = await client.callTool({ name: 'read_manifest_meta', arguments: { id: 'weight' } });
  expect(r.isError).toBeFalsy();
}

describe('the list requests clients send on connecting', () => {
  it('are answered over HTTP: a URI template, no prompts, -32602 for a prompt by name', async () => {
    const client = new Client({ name: 'probe', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${T}` } },
      }),
    );
    try {
      expect(client.getServerCapabilities()?.prompts).toBeDefined();
      await discover(client);
    } finally {
      await client.close();
    }
  });

  it('are answered over stdio the same way', async () => {
    const client = await connectStdioClient(s.home);
    try {
      await discover(client);
    } finally {
      await client.close();
    }
  });
});
