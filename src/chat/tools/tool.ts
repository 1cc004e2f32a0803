/**
 * Tools as data (STYLE "Tools as data"): a name, a description the model reads, a TypeBox
 * parameter schema (which is the JSON Schema the gateway needs), and a `run` that calls the same
 * plain functions as the REST API. The loop knows nothing about individual tools.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import type { CardContext } from '../../cards/card-context.js';
import type { Config } from '../../config.js';
import type { HomeLayout } from '../../home/home-layout.js';
import type { ApprovalDecision, ApprovalRequest } from '../approvals/approval-hub.js';

/** A card the turn created or edited (tools record touches for follow-up chips). */
export interface Touch {
  id: string;
  flow: 'create' | 'edit';
}

/** What a tool may use. `actor` is recorded on every change set (`chat:<turn id>`). */
export interface ToolContext {
  cards: CardContext;
  config: Config;
  layout: HomeLayout;
  actor: string;
  /** The person's time zone for "today"; undefined: the server's. */
  timeZone?: string;
  /** Cards touched during this turn, first touch per id kept. */
  touch(t: Touch): void;
  /**
   * Whether a reminder (`<card id>#<item id>`) will reach a device (src/push/push-service.ts),
   * so set_notification can tell the model the truth; absent: unknown (no push service).
   */
  reminderDelivery?: (id: string) => ReminderDelivery;
  /**
   * Asks the person to approve a destructive call (see approval-hub.ts) and waits for the
   * answer. Absent when nobody can be asked: such calls are then refused (APPROVAL_REQUIRED).
   */
  approve?(req: ApprovalRequest): Promise<ApprovalDecision>;
  /** Rows removed so far in this turn or session (remove_row asks approval past the first). */
  removedRows?: number;
  /**
   * Whose change sets `undo_last_change` may take back (see lastUndoableSet). Absent: the
   * caller's own (`actor`), as for an MCP client; null: none (a chat request with no
   * conversation has no earlier turns of its own).
   */
  undoable?: { actor?: string; actorPrefix?: string; except?: string } | null;
}

/** What set_notification reports about delivery: devices subscribed and whether this one will arrive. */
export interface ReminderDelivery {
  devices: number;
  will_arrive: boolean;
  reason: string | null;
}

/** One tool. `run` returns a JSON-serialisable value; a throw becomes `{error}` for the model. */
export interface Tool<S extends TSchema = TSchema> {
  name: string;
  description: string;
  parameters: S;
  /** Card id the call concerns, for the `status {phase:'tool', tool, id}` event. */
  cardIdOf?: (args: Static<S>) => string | undefined;
  run(args: Static<S>, ctx: ToolContext): unknown | Promise<unknown>;
  /**
   * For a destructive call: what it will do, in plain words, when it needs the person's approval
   * first; undefined when it may run at once. A throw means "no approval needed": the call then
   * fails in `run` with the same error.
   */
  approval?: (args: Static<S>, ctx: ToolContext) => string | undefined;
  /**
   * For a tool with an approval step: every check `run` makes of the call, writing nothing. It
   * runs before the person is asked, so a call that cannot succeed fails at once with its error
   * instead of becoming an approval that can only fail.
   */
  check?: (args: Static<S>, ctx: ToolContext) => void;
  /** The tool only reads (offered to read-only tokens over MCP). */
  readOnly?: boolean;
}

/** Declares a tool with its argument type inferred from the schema. */
export function defineTool<S extends TSchema>(tool: Tool<S>): Tool {
  return tool as unknown as Tool;
}
