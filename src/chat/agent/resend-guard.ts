/**
 * Resending a message must not apply its writes twice. When a turn fails after its tools changed
 * data, the writes are remembered under the message that asked for them (its conversation and
 * text); when the same message comes again, a tool call identical to one already applied (same
 * tool, same arguments) is not run again: it gets the answer the first run got. Each remembered
 * write stands in for one call only, and the memory lasts CHAT_RESEND_WINDOW_MS. Kept in memory:
 * a restart forgets it, which at worst repeats one write the reply had already listed.
 */
import { createHash } from 'node:crypto';
import { CHAT_RESEND_MAX_MESSAGES, CHAT_RESEND_WINDOW_MS } from '../../limits.js';
import type { AppliedWrite } from './writes.js';

interface Entry {
  writes: AppliedWrite[];
  at: number;
}

/** The writes of failed turns, by the message that asked for them. */
export class ResendGuard {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly windowMs = CHAT_RESEND_WINDOW_MS,
    private readonly now = () => Date.now(),
  ) {}

  /** The key of a message: its conversation (or none) and its text. */
  static keyOf(conversationId: string | undefined, text: string): string {
    return createHash('sha256')
      .update(`${conversationId ?? ''}\u0000${text.trim()}`)
      .digest('hex');
  }

  /**
   * Starts a turn for the message `key`: returns a lookup that, for a call identical to a write
   * already applied for this message, hands back that write (once per remembered write), else
   * undefined. The remembered writes are taken out of the guard: the turn decides at its end
   * what to remember again (see `remember`).
   */
  begin(key: string): { replay(callKey: string): AppliedWrite | undefined; unused(): AppliedWrite[] } {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    const left = entry && this.now() - entry.at <= this.windowMs ? [...entry.writes] : [];
    return {
      replay(callKey: string) {
        const i = left.findIndex((w) => w.key === callKey);
        return i < 0 ? undefined : left.splice(i, 1)[0];
      },
      unused: () => left,
    };
  }

  /** Remembers the writes of a turn that failed after writing (none: nothing to remember). */
  remember(key: string, writes: AppliedWrite[]): void {
    if (writes.length === 0) return;
    this.entries.set(key, { writes, at: this.now() });
    for (const [k, e] of this.entries) {
      if (this.entries.size <= CHAT_RESEND_MAX_MESSAGES && this.now() - e.at <= this.windowMs) break;
      this.entries.delete(k);
    }
  }
}
