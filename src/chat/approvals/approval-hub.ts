/**
 * Approvals for destructive tool calls (docs/CHAT-AGENT.md "Approvals"): a call the policy marks
 * (delete a card, replace its rows, remove several rows, remove a reminder, a patch that drops
 * inputs or stops web entries) does not run on the model's word. The turn pauses with an
 * `approval` event; the person answers with `POST /api/chat/approvals/:id`. Each request is
 * resolved at most once, expires after APPROVAL_TTL_MS, and is bound to its conversation (or
 * turn) and to a digest of the exact call, so a stale or replayed answer changes nothing.
 * Resolution is synchronous (check, delete, settle in one run of the event loop), so two answers
 * racing each other cannot both count.
 */
import { createHash, randomUUID } from 'node:crypto';
import { canonicalJson } from '../../common/canonical-json.js';
import { conflict, notFound } from '../../errors.js';
import { APPROVAL_TTL_MS } from '../../limits.js';

/** How a request ended. */
export type ApprovalDecision = 'approved' | 'declined' | 'expired' | 'stopped';

/** What the person is asked. */
export interface ApprovalRequest {
  tool: string;
  args: unknown;
  /** What will happen, in plain words ("Delete the card “Weight” and its 12 rows for good."). */
  summary: string;
  cardId?: string;
}

/** The `approval` event's data. */
export interface ApprovalEvent {
  id: string;
  conversationId: string | null;
  tool: string;
  summary: string;
  cardId?: string;
  /** sha256 of the tool name and its canonical arguments, hex: echoed back by the answer. */
  digest: string;
  /** ISO time after which the request is declined by itself. */
  expiresAt: string;
}

interface Pending {
  event: ApprovalEvent;
  /** The conversation id, or `turn:<id>` for a turn without one. */
  scope: string;
  settle: (d: ApprovalDecision) => void;
  timer: NodeJS.Timeout;
}

/** The digest an approval is bound to. */
export function callDigest(tool: string, args: unknown): string {
  return createHash('sha256')
    .update(`${tool}\u0000${canonicalJson(args ?? {})}`)
    .digest('hex');
}

/** Pending approvals of one instance. */
export class ApprovalHub {
  private readonly pending = new Map<string, Pending>();
  /** Ids answered or expired lately, so a replay gets a clear 409 rather than a 404. */
  private readonly settled = new Map<string, ApprovalDecision>();

  constructor(private readonly ttlMs = APPROVAL_TTL_MS) {}

  /**
   * Asks for approval: `announce` sends the `approval` event; the promise settles with the
   * decision (`stopped` when `signal` aborts first, `expired` after the TTL).
   */
  request(
    req: ApprovalRequest,
    where: { conversationId: string | null; turnId: string },
    announce: (e: ApprovalEvent) => void,
    signal: AbortSignal,
  ): Promise<ApprovalDecision> {
    const id = randomUUID();
    const event: ApprovalEvent = {
      id,
      conversationId: where.conversationId,
      tool: req.tool,
      summary: req.summary,
      ...(req.cardId ? { cardId: req.cardId } : {}),
      digest: callDigest(req.tool, req.args),
      expiresAt: new Date(Date.now() + this.ttlMs).toISOString(),
    };
    return new Promise<ApprovalDecision>((resolve) => {
      const finish = (d: ApprovalDecision) => {
        const p = this.pending.get(id);
        if (!p) return;
        this.pending.delete(id);
        clearTimeout(p.timer);
        signal.removeEventListener('abort', onAbort);
        this.remember(id, d);
        resolve(d);
      };
      const onAbort = () => finish('stopped');
      const timer = setTimeout(() => finish('expired'), this.ttlMs);
      timer.unref();
      this.pending.set(id, {
        event,
        scope: where.conversationId ?? `turn:${where.turnId}`,
        settle: finish,
        timer,
      });
      if (signal.aborted) return finish('stopped');
      signal.addEventListener('abort', onAbort, { once: true });
      announce(event);
    });
  }

  /**
   * The person's answer. Must name the same conversation (null for a turn without one) and the
   * digest of the call it approves.
   * @throws 404 APPROVAL_NOT_FOUND (unknown id), 409 APPROVAL_RESOLVED (answered, expired or
   *   stopped already: nothing happens again), 409 APPROVAL_MISMATCH (another conversation or call).
   */
  resolve(
    id: string,
    answer: { conversationId: string | null; digest: string; approve: boolean },
  ): ApprovalDecision {
    const p = this.pending.get(id);
    if (!p) {
      const was = this.settled.get(id);
      if (was)
        throw conflict(
          `this approval request was already ${was}; nothing was changed now`,
          'APPROVAL_RESOLVED',
        );
      throw notFound('no approval request with this id', 'APPROVAL_NOT_FOUND', { id });
    }
    if (p.event.conversationId !== answer.conversationId || p.event.digest !== answer.digest) {
      throw conflict(
        'this answer is for another conversation or another call; nothing was changed',
        'APPROVAL_MISMATCH',
      );
    }
    const decision: ApprovalDecision = answer.approve ? 'approved' : 'declined';
    p.settle(decision);
    return decision;
  }

  /** The requests waiting for an answer (for a client that reattaches, and tests). */
  waiting(): ApprovalEvent[] {
    return [...this.pending.values()].map((p) => p.event);
  }

  private remember(id: string, d: ApprovalDecision): void {
    this.settled.set(id, d);
    // a bounded memory: the oldest answers are forgotten first
    if (this.settled.size > 1000) this.settled.delete(this.settled.keys().next().value as string);
  }
}
