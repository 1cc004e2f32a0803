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
import type { ErrorCode } from '../errors.js';
import type { Instance } from '../instance.js';
import { lazyImport } from '../lazy-module.js';
import { MCP_MAX_SESSIONS } from '../limits.js';
import { acceptedAnswers, spellAcceptForTransport } from './accept.js';
import { SessionEvents } from './event-log.js';
import type { McpCaller } from './mcp-server.js';
import { postRefusal, replayRefusal, streamRefusal } from './request-checks.js';
import { mcpErrorHandler, RPC_SERVER_ERROR, requestRpcId, rpcErrorBody } from './rpc-errors.js';

/** The SDK's JSON-RPC code for a session it does not know. */
const RPC_SESSION_NOT_FOUND = -32001;

/** The MCP SDK and our server on it are loaded with the first MCP request, not at start-up. */
const mcpModules = lazyImport(async () => {
  const [sdk, types, server] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('./mcp-server.js'),
  ]);
  return {
    StreamableHTTPServerTransport: sdk.StreamableHTTPServerTransport,
    protocolVersions: types.SUPPORTED_PROTOCOL_VERSIONS,
    isMessage: (message: unknown) => types.JSONRPCMessageSchema.safeParse(message).success,
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
  /** Answers one JSON object per request instead of event streams (its client accepts no streams). */
  json: boolean;
  /** The protocol version its initialize agreed on (what the client asked for when spoken, else the newest). */
  version: string;
  /** What its event streams sent, for a client reconnecting with Last-Event-ID (none for a JSON session). */
  events?: SessionEvents;
}

/** A refusal of the route itself, as every /mcp error: with the catalogue's code as `data.code`. */
function rpcError(
  reply: FastifyReply,
  req: FastifyRequest,
  status: number,
  message: string,
  rpcCode: number,
  code: ErrorCode,
  details?: { path: string; message: string }[],
) {
  const data = details ? { code, details } : { code };
  return reply.status(status).send(rpcErrorBody(requestRpcId(req), rpcCode, message, data));
}

/** Whether a POST body is one `initialize` request. */
const isInitializeBody = (body: unknown) =>
  typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'initialize';

/**
 * A GET or DELETE of `/mcp` carries no message: a `Content-Type` sent with no body (HTTP
 * libraries and proxies that set one on every request) is dropped, so the request is not refused
 * as an empty JSON body. One that does send a body is read, and refused, as before.
 */
async function forgetEmptyBodyType(req: FastifyRequest): Promise<void> {
  const length = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (!chunked && (length === undefined || length === '0')) delete req.headers['content-type'];
}

/**
 * The protocol version an initialize `body` agrees on, as the SDK's server answers it: the one
 * the client asked for when the SDK speaks it, else the newest it speaks (`versions[0]`).
 */
function agreedVersion(body: unknown, versions: readonly string[]): string {
  const asked = (body as { params?: { protocolVersion?: unknown } } | null)?.params?.protocolVersion;
  return typeof asked === 'string' && versions.includes(asked) ? asked : versions[0];
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
    const named = typeof sid === 'string' ? sessions.get(sid) : undefined;
    let session = named?.owner === owner ? named : undefined;
    // an initialize that still carries a session id Klebb no longer knows (it restarted, the
    // session was closed) starts a new session: clients that keep the old id would otherwise
    // be answered 404 for ever
    if (typeof sid === 'string' && !session && !(req.method === 'POST' && isInitializeBody(req.body)))
      return rpcError(
        reply,
        req,
        404,
        'Session not found: unknown MCP session; start a new one',
        RPC_SESSION_NOT_FOUND,
        'MCP_SESSION_NOT_FOUND',
      );
    if (!session && req.method !== 'POST')
      return rpcError(
        reply,
        req,
        400,
        'start a session with an initialize request',
        RPC_SERVER_ERROR,
        'BAD_REQUEST',
      );
    const { StreamableHTTPServerTransport, createMcpServer, protocolVersions, isMessage } =
      await mcpModules();
    const refused =
      req.method === 'POST'
        ? postRefusal(req, session?.json, protocolVersions, session?.version, isMessage)
        : (streamRefusal(req, protocolVersions) ?? replayRefusal(req, session?.events));
    if (refused)
      return rpcError(
        reply,
        req,
        refused.status,
        refused.message,
        refused.rpcCode,
        refused.code,
        refused.details,
      );
    if (!session) {
      const json = !acceptedAnswers(req.raw).eventStream;
      const version = agreedVersion(req.body, protocolVersions);
      const events = json ? undefined : new SessionEvents();
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: json,
        eventStore: events,
        onsessioninitialized: (id) => {
          if (sessions.size >= MCP_MAX_SESSIONS) {
            const [oldest] = sessions.keys();
            void sessions.get(oldest)?.transport.close();
            sessions.delete(oldest);
          }
          sessions.set(id, { transport, owner, json, version, events });
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await createMcpServer(deps, caller, { streams: !json }).connect(transport);
      session = { transport, owner, json, version, events };
    }
    // the transport looks for both types spelled out; the route has checked what the client reads
    if (req.method === 'POST' || acceptedAnswers(req.raw).eventStream) spellAcceptForTransport(req.raw);
    reply.hijack();
    await session.transport.handleRequest(req.raw, reply.raw, req.body);
  };
  const opts = { config: { readOnlyChecked: true }, errorHandler: mcpErrorHandler };
  // a token past its rate limit is refused once the body is read, so the error repeats its id
  app.post('/mcp', { ...opts, config: { ...opts.config, refusesAfterBody: true } }, handle);
  app.get('/mcp', { ...opts, onRequest: forgetEmptyBodyType }, handle);
  app.delete('/mcp', { ...opts, onRequest: forgetEmptyBodyType }, handle);
}
