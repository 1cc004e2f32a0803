/**
 * The tool registry: the list the gateway is offered and the one dispatcher the agent loop
 * calls. Arguments are checked against each tool's schema (a bad call gets `{error}` naming the
 * failing field, and the turn goes on); numbers JavaScript would not keep as written are found
 * earlier, on the arguments' text (the chat gateway's tool-call text, the MCP request text), and
 * arrive here as `argumentsError`. A tool that throws returns `{error, code?, path?, id?}` to the
 * model ("failures are {error}").
 */
import { Value } from '@sinclair/typebox/value';
import type { JsonShapeProblem } from '../../common/json-guard.js';
import { type ErrorCode, KlebbError } from '../../errors.js';
import type { ApprovalDecision } from '../approvals/approval-hub.js';
import type { ToolDefinition } from '../gateway/types.js';
import { CARD_TOOLS } from './card-tools.js';
import { CHANGE_TOOLS } from './change-tools.js';
import { INFO_TOOLS } from './info-tools.js';
import { modelSchema } from './model-schema.js';
import { NOTIFICATION_TOOLS } from './notification-tools.js';
import { ROW_TOOLS } from './row-tools.js';
import type { Tool, ToolContext } from './tool.js';

/** Every tool of docs/CHAT-AGENT.md, in the order the system prompt lists them. */
export const ALL_TOOLS: Tool[] = [
  ...CARD_TOOLS,
  ...ROW_TOOLS,
  ...NOTIFICATION_TOOLS,
  ...INFO_TOOLS,
  ...CHANGE_TOOLS,
];

const byName = new Map(ALL_TOOLS.map((t) => [t.name, t]));

/** Looks a tool up by name. */
export function findTool(name: string): Tool | undefined {
  return byName.get(name);
}

/** The tools in chat-completions wire shape (`parameters` is the TypeBox JSON Schema). */
let allDefinitions: ToolDefinition[] | undefined;

export function toolDefinitions(tools: Tool[] = ALL_TOOLS): ToolDefinition[] {
  if (tools === ALL_TOOLS) {
    allDefinitions ??= definitionsOf(ALL_TOOLS);
    return allDefinitions;
  }
  return definitionsOf(tools);
}

function definitionsOf(tools: Tool[]): ToolDefinition[] {
  return tools.map((t) => ({
    type: 'function',
    function: {
      name: t.name,
      description: t.description,
      parameters: modelSchema(
        JSON.parse(JSON.stringify(t.parameters)),
      ) as ToolDefinition['function']['parameters'],
    },
  }));
}

/** The plain words of the approval a call needs, or undefined (a policy that throws needs none: `run` fails alike). */
function approvalNeeded(tool: Tool, args: unknown, ctx: ToolContext): string | undefined {
  try {
    return tool.approval?.(args as never, ctx);
  } catch {
    return undefined;
  }
}

/** The outcome of one tool call: the JSON text for the `role:"tool"` message and whether it failed. */
export interface DispatchResult {
  content: string;
  ok: boolean;
  /** The card the call concerned, when known. */
  cardId?: string;
  /** Time spent waiting for the person's approval, ms (not counted against the turn's deadline). */
  pausedMs?: number;
}

/** What the model reads when a call was not approved: nothing changed, and why. */
function notApproved(decision: ApprovalDecision): string {
  const why =
    decision === 'declined'
      ? 'The person declined this action: nothing was changed. Do not try it again unless they ask.'
      : decision === 'expired'
        ? 'Nobody answered the approval request within 10 minutes: nothing was changed.'
        : 'The turn was stopped before the person answered: nothing was changed.';
  return JSON.stringify({ ok: false, approved: false, decision, message: why });
}

/**
 * What the card a call concerns is now: its file's hash and its data version, or '' when it does
 * not exist. An approval is for the card the person was shown; any write to it in between (a row
 * logged in another tab, a phone push, a hand edit) makes the approved words stale.
 */
function cardStamp(ctx: ToolContext, cardId: string | undefined): string {
  const card = cardId === undefined ? undefined : ctx.cards.registry.get(cardId);
  if (!card || cardId === undefined) return '';
  return `${card.hash}:${ctx.cards.store.state(cardId).version}`;
}

/** The refusal of an approved call whose card changed while the person was being asked. */
function changedWhileAsked(summary: string): string {
  return toolError(
    `The card changed while the person was being asked to approve this (“${summary}”), so what they approved no longer describes it: nothing was changed. Read the card again and, if it is still wanted, make the call again so they are asked about the card as it is now.`,
    'CONFLICT',
  );
}

/** A tool's failure as the model (or an MCP client) reads it: `{error, code, details?}`, code from the catalogue. */
function toolError(error: string, code: ErrorCode, details?: { path: string; message: string }[]): string {
  return JSON.stringify(details ? { error, code, details } : { error, code });
}

function errorContent(err: unknown): string {
  if (err instanceof KlebbError) {
    return JSON.stringify({
      error: err.message,
      code: err.code,
      ...(err.details ? { details: err.details } : {}),
      ...err.extra,
    });
  }
  return JSON.stringify({ error: err instanceof Error ? err.message : String(err) });
}

/**
 * Why a call's arguments cannot be used: text that did not read as JSON (a message, answered
 * BAD_ARGUMENTS), or an argument whose number text JavaScript would not keep as written (its path
 * and what is wrong, answered NUMBER_OUT_OF_RANGE naming it, as a REST body is).
 */
export type ArgumentsError = string | JsonShapeProblem;

/**
 * Runs one tool call. `args` is the parsed arguments (undefined when they did not parse:
 * `argumentsError` says why). Never throws: every failure is an `{error}` result.
 */
export async function dispatchToolCall(
  name: string,
  args: unknown,
  ctx: ToolContext,
  argumentsError?: ArgumentsError,
): Promise<DispatchResult> {
  const tool = findTool(name);
  if (!tool) {
    const error = `unknown tool "${name}"; available: ${[...byName.keys()].join(', ')}`;
    return { ok: false, content: toolError(error, 'UNKNOWN_TOOL') };
  }
  if (typeof argumentsError === 'object') {
    // a number its text holds would be stored changed (1e999 as null, a rounded big integer)
    const problem = argumentsError;
    return {
      ok: false,
      content: toolError(`${problem.path} ${problem.message}`, 'NUMBER_OUT_OF_RANGE', [problem]),
    };
  }
  if (argumentsError !== undefined) {
    const error = /valid JSON/i.test(argumentsError)
      ? argumentsError
      : `the arguments are not valid JSON: ${argumentsError}`;
    return { ok: false, content: toolError(error, 'BAD_ARGUMENTS') };
  }
  if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args))) {
    return {
      ok: false,
      content: toolError(`the arguments of ${name} must be a JSON object`, 'BAD_ARGUMENTS', [
        { path: '(arguments)', message: 'must be a JSON object' },
      ]),
    };
  }
  const value = args ?? {};
  if (!Value.Check(tool.parameters, value)) {
    const errors = [...Value.Errors(tool.parameters, value)].slice(0, 5).map((e) => ({
      path: e.path.replace(/^\//, '').replace(/\//g, '.') || '(arguments)',
      message: e.message,
    }));
    return {
      ok: false,
      content: toolError(`invalid arguments for ${name}`, 'BAD_ARGUMENTS', errors),
    };
  }
  let cardId: string | undefined;
  try {
    cardId = tool.cardIdOf?.(value as never);
  } catch {
    cardId = undefined;
  }
  let pausedMs: number | undefined;
  try {
    // a call that cannot succeed is refused now, never put to the person for approval
    tool.check?.(value as never, ctx);
  } catch (err) {
    return { ok: false, content: errorContent(err), cardId };
  }
  const need = approvalNeeded(tool, value, ctx);
  if (need !== undefined) {
    if (!ctx.approve) {
      const error = `${need} This needs the person's approval, and it cannot be asked for here: nothing was changed. Ask them to do it from the Klebb chat panel or the web app.`;
      return { ok: false, content: toolError(error, 'APPROVAL_REQUIRED'), cardId };
    }
    const asked = cardStamp(ctx, cardId);
    const t0 = Date.now();
    const decision = await ctx.approve({ tool: name, args: value, summary: need, cardId });
    pausedMs = Date.now() - t0;
    if (decision !== 'approved') return { ok: true, content: notApproved(decision), cardId, pausedMs };
    if (cardStamp(ctx, cardId) !== asked) {
      return { ok: false, content: changedWhileAsked(need), cardId, pausedMs };
    }
  }
  try {
    const result = await tool.run(value as never, ctx);
    // a write is reported to the model (and the person) only once it is on disk
    if (!tool.readOnly) await ctx.cards.store.durable();
    return { ok: true, content: JSON.stringify(result ?? { ok: true }), cardId, pausedMs };
  } catch (err) {
    return { ok: false, content: errorContent(err), cardId, pausedMs };
  }
}
