import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/**
 * An MCP client connected to `npm run mcp` as a desktop assistant starts it (the built
 * dist/src/mcp/stdio.js, HEALTH_HOME = `home`, logs silent). Close it when done.
 */
export async function connectStdioClient(home: string, name = 'probe'): Promise<Client> {
  const client = new Client({ name, version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.resolve('dist/src/mcp/stdio.js')],
      env: { HEALTH_HOME: home, KLEBB_LOG_LEVEL: 'silent', PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    }),
  );
  return client;
}
