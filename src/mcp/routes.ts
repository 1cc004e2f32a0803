/**
 * `/mcp`: the MCP server over Streamable HTTP (docs/MCP.md). The caller is the bearer token the
 * auth gate accepted; a read-only named token gets the read tools only (the route checks that
 * itself, so the gate lets its POSTs through). Sessions are kept in memory per token, at most
 * MCP_MAX_SESSIONS (the oldest is closed first).
 */
import { randomUUID } from 'node:crypto';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.js';
import { lookupTable } from '../common/lookup-table.js';
import { errorHandler, toErrorResponse } from '../http/error-handler.js';
import type { Instance } from '../instance.js';
import { lazyImport } from '../lazy-module.js';
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

function rpcError(reply: FastifyReply, status: number, message: string, code = -32000, data?: object) {
  return reply.status(status).send({ jsonrpc: '2.0', error: { code, message, data }, id: null });
}

/** JSON-RPC codes for a body the JSON guard refused: unreadable text is a parse error, a number out of range bad params. */
const BODY_REFUSALS = lookupTable<number>({
  INVALID_JSON: -32700,
  INVALID_UTF8: -32700,
  EMPTY_BODY: -32700,
  NUMBER_OUT_OF_RANGE: -32602,
});

/**
 * Errors of the `/mcp` routes: a body the JSON guard refused (bad JSON, broken text, a number
 * JavaScript cannot keep) is answered as MCP clients expect, a JSON-RPC error object with HTTP
 * 400 (as the SDK's transport answers a parse error), with our message and `{code, details}` as
 * its data. Everything else (401 of the gate ...) is the API's usual error answer.
 */
function mcpErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const { status, body } = toErrorResponse(err);
  const rpcCode = BODY_REFUSALS[body.code];
  if (status === 400 && rpcCode !== undefined)
    rpcError(reply, 400, body.error, rpcCode, { code: body.code, details: body.details });
  else errorHandler(err, req, reply);
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
  const opts = { config: { readOnlyChecked: true }, errorHandler: mcpErrorHandler };
  app.post('/mcp', opts, handle);
  app.get('/mcp', opts, handle);
  app.delete('/mcp', opts, handle);
}
