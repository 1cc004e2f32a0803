/**
 * The MCP server (docs/MCP.md): the chat's tools (one registry, the same functions, the same
 * approvals for destructive calls) and the cards as resources, for a desktop assistant or any
 * MCP client. Built on the low-level `Server` of @modelcontextprotocol/sdk so the tools keep
 * their TypeBox JSON Schemas. A read-only caller is offered, and may call, only read tools.
 * Approvals are asked with MCP elicitation when the client supports it; a client that does not
 * gets APPROVAL_REQUIRED and nothing changes. Every tool call is one change set (actor `mcp:<who>`).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { CardContext } from '../cards/card-context.js';
import { compareCards, readCardJson } from '../cards/card-crud.js';
import type { ApprovalDecision } from '../chat/approvals/approval-hub.js';
import { ALL_TOOLS, dispatchToolCall, findTool } from '../chat/tools/registry.js';
import type { ToolContext } from '../chat/tools/tool.js';
import { clipGraphemes } from '../common/graphemes.js';
import type { Config } from '../config.js';
import type { HomeLayout } from '../home/home-layout.js';
import { APPROVAL_TTL_MS } from '../limits.js';
import { inChangeSet } from '../store/change-scope.js';
import { anyParams, checkedRequest, checkListParams } from './request-params.js';
import { fitResult, resourceTooLarge } from './result-size.js';

/** The URI of a card resource. */
export const cardUri = (id: string) => `klebb://cards/${encodeURIComponent(id)}`;

/** The MCP error code of an unknown resource (the MCP specification's "Resource not found"). */
export const RESOURCE_NOT_FOUND = -32002;

/** The card id a resource URI names, or undefined when it names none (another scheme, a bad %-escape). */
function cardIdOfUri(uri: string): string | undefined {
  const m = /^klebb:\/\/cards\/(.+)$/.exec(uri);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return undefined;
  }
}

/** The error `resources/read` answers for a URI that names no card: -32002 with the URI. */
function resourceNotFound(uri: string): McpError {
  return new McpError(RESOURCE_NOT_FOUND, `Resource not found: no card at ${uri}`, { uri });
}

/** The error `tools/call` answers for a name no tool has: -32602 (invalid params) naming it. */
function unknownTool(name: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Unknown tool: "${name}"`, { code: 'UNKNOWN_TOOL', name });
}

/** The one resource template: a card by its id. */
const RESOURCE_TEMPLATES = [
  {
    uriTemplate: 'klebb://cards/{id}',
    name: 'card',
    title: 'A card',
    description: 'A card with its rows, as GET /api/manifests/:id returns it; id is its meta.id.',
    mimeType: 'application/json',
  },
];

/**
 * The answers of the list requests MCP clients send on connecting whatever the server offers
 * (Cline, opencode, Continue, gateways probing every list): the cards' URI template, and no
 * prompts. A `-32601 Method not found` there is taken by several clients for a failed server
 * and the whole server is dropped, its tools with it. A prompt asked for by name does not exist:
 * -32602 (invalid params) naming it, as for a tool. A list asked for with a cursor is -32602
 * naming it (checkListParams): every list comes whole.
 */
function discoveryHandlers(server: Server): void {
  server.setRequestHandler(anyParams('resources/templates/list'), async (request) => {
    checkListParams(request);
    return { resourceTemplates: RESOURCE_TEMPLATES };
  });
  server.setRequestHandler(anyParams('prompts/list'), async (request) => {
    checkListParams(request);
    return { prompts: [] };
  });
  server.setRequestHandler(anyParams('prompts/get'), async (request) => {
    const name = checkedRequest(GetPromptRequestSchema, request).params.name;
    throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: "${name}"`, {
      code: 'UNKNOWN_PROMPT',
      name,
    });
  });
}

/** Who is connected: the actor recorded on their change sets, and whether they may only read. */
export interface McpCaller {
  actor: string;
  readOnly: boolean;
}

/** What the MCP server needs from the instance. */
export interface McpDeps {
  cards: CardContext;
  config: Config;
  layout: HomeLayout;
  timeZone?: () => string | undefined;
}

/**
 * A new MCP server for one connection (one session or one stdio process). `streams: false` for
 * an HTTP session answering with JSON only: it has no stream to put a question to the client on,
 * so it never asks for approval (the call answers APPROVAL_REQUIRED instead of waiting for ever).
 */
export function createMcpServer(deps: McpDeps, caller: McpCaller, opts: { streams?: boolean } = {}): Server {
  const server = new Server(
    { name: 'klebb', version: '1.0.0' },
    {
      // prompts: none, but clients ask for them whatever a server offers (see discoveryHandlers)
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions:
        'Klebb: a personal health dashboard. Read a card (read_manifest_meta) before writing to it.',
    },
  );
  const offered = ALL_TOOLS.filter((t) => !caller.readOnly || t.readOnly);

  server.setRequestHandler(anyParams('tools/list'), async (request) => {
    checkListParams(request);
    return {
      tools: offered.map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: JSON.parse(JSON.stringify(t.parameters)),
      })),
    };
  });

  /**
   * Asks the person through the client (elicitation), when the client can. The question is
   * withdrawn when the client cancels the tool call (`signal`): the call then changes nothing,
   * even if an answer still arrives ('stopped'). The person has as long as in the chat
   * (APPROVAL_TTL_MS) before it is 'expired', not the SDK's minute for a request.
   */
  const approve = async (summary: string, signal: AbortSignal): Promise<ApprovalDecision> => {
    if (signal.aborted) return 'stopped';
    try {
      const r = await server.elicitInput(
        { message: `${summary} Approve?`, requestedSchema: { type: 'object', properties: {} } },
        { signal, timeout: APPROVAL_TTL_MS },
      );
      if (signal.aborted) return 'stopped';
      return r.action === 'accept' ? 'approved' : 'declined';
    } catch (err) {
      if (signal.aborted) return 'stopped';
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) return 'expired';
      throw err;
    }
  };

  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const name = req.params.name;
    const tool = findTool(name);
    // a name no tool has is the caller's protocol mistake, as MCP classes it: a JSON-RPC error
    if (!tool) throw unknownTool(name);
    if (!offered.includes(tool)) {
      const error = `${name} changes data, and this token is read-only`;
      return {
        content: [{ type: 'text', text: JSON.stringify({ error, code: 'READ_ONLY_TOKEN' }) }],
        isError: true,
      };
    }
    const ctx: ToolContext = {
      cards: deps.cards,
      config: deps.config,
      layout: deps.layout,
      actor: caller.actor,
      timeZone: deps.timeZone?.(),
      touch: () => {},
    };
    if (opts.streams !== false && server.getClientCapabilities()?.elicitation)
      ctx.approve = (ask) => approve(ask.summary, extra.signal);
    const out = await inChangeSet({ actor: caller.actor, fresh: true }, () =>
      dispatchToolCall(name, req.params.arguments ?? {}, ctx),
    );
    return fitResult(name, { content: [{ type: 'text', text: out.content }], isError: !out.ok });
  });

  discoveryHandlers(server);

  server.setRequestHandler(anyParams('resources/list'), async (request) => {
    checkListParams(request);
    return {
      resources: deps.cards.registry
        .all()
        .sort(compareCards)
        .map((c) => ({
          uri: cardUri(c.id),
          name: c.id,
          title: String(c.manifest.meta.label ?? c.id),
          description:
            typeof c.manifest.description === 'string'
              ? clipGraphemes(c.manifest.description, 200)
              : undefined,
          mimeType: 'application/json',
        })),
    };
  });

  server.setRequestHandler(anyParams('resources/read'), async (request) => {
    const { uri } = checkedRequest(ReadResourceRequestSchema, request).params;
    const id = cardIdOfUri(uri);
    if (id === undefined || !deps.cards.registry.has(id)) throw resourceNotFound(uri);
    const { json } = readCardJson(deps.cards, id);
    const tooLarge = resourceTooLarge(uri, json);
    if (tooLarge) throw tooLarge;
    return { contents: [{ uri, mimeType: 'application/json', text: json }] };
  });
  return server;
}
