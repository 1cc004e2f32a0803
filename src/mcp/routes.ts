/**
 * `/mcp`: the MCP server over Streamable HTTP (docs/MCP.md). The caller is the bearer token the
 * auth gate accepted; a read-only named token gets the read tools only (the route checks that
 * itself, so the gate lets its POSTs through). Sessions are kept in memory per token, at most
 * MCP_MAX_SESSIONS (the oldest is closed first).
 */
import { randomUUID } from 'node:crypto';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.js';
import { lazyImport } from '../common/lazy-module.js';
import type { Instance } from '../instance.js';
import { MCP_MAX_SESSIONS } from '../limits.js';
import type { McpCaller } from './mcp-server.js';

/** The MCP SDK and our server on it are loaded with the first MCP request, not at start-up. */
const mcpModules = lazyImport(async () => {
  const [sdk, server] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('./mcp-server.js'),
  ]);
  return {
    StreamableHTTPServerTransport: sdk.StreamableHTTPServerTransport,
    createMcpServer: server.createMcpServer,
  };
});

/** The MCP caller a principal stands for. */
export function mcpCaller(p: Principal | null): McpCaller {
  if (p?.kind === 'named-token') return { actor: `mcp:${p.name}`, readOnly: p.access === 'read' };
  return { actor: `mcp:${p?.actor ?? 'local'}`, readOnly: false };
}

interface Session {
  transport: StreamableHTTPServerTransport;
  owner: string;
}

function rpcError(reply: FastifyReply, status: number, message: string) {
  return reply.status(status).send({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

/** Registers `POST`, `GET` and `DELETE /mcp`. */
export function mcpRoutes(app: FastifyInstance, inst: Instance): void {
  const sessions = new Map<string, Session>();
  const deps = {
    cards: inst.cards,
    config: inst.config,
    layout: inst.layout,
    timeZone: () => inst.user.timeZone(),
  };
  app.addHook('onClose', async () => {
    for (const s of sessions.values()) await s.transport.close();
    sessions.clear();
  });

  const handle = async (req: FastifyRequest, reply: FastifyReply) => {
    const caller = mcpCaller(req.principal);
    const owner = `${caller.actor}:${caller.readOnly}`;
    const sid = req.headers['mcp-session-id'];
    let session = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (typeof sid === 'string' && (!session || session.owner !== owner))
      return rpcError(reply, 404, 'unknown MCP session');
    if (!session) {
      if (req.method !== 'POST') return rpcError(reply, 400, 'start a session with an initialize request');
      const { StreamableHTTPServerTransport, createMcpServer } = await mcpModules();
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          if (sessions.size >= MCP_MAX_SESSIONS) {
            const [oldest] = sessions.keys();
            void sessions.get(oldest)?.transport.close();
            sessions.delete(oldest);
          }
          sessions.set(id, { transport, owner });
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await createMcpServer(deps, caller).connect(transport);
      session = { transport, owner };
    }
    reply.hijack();
    await session.transport.handleRequest(req.raw, reply.raw, req.body);
  };
  const config = { readOnlyChecked: true };
  app.post('/mcp', { config }, handle);
  app.get('/mcp', { config }, handle);
  app.delete('/mcp', { config }, handle);
}
