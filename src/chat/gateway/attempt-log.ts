/**
 * One log line per failed gateway attempt, so an operator can see a flaky or refusing gateway
 * even when a retry hid it from the person: the status, which attempt, what happens next (the
 * wait before the retry, or giving up), the error's kind, reason, code and type, and a short
 * message. Never the API key (masked wherever a provider echoes it), nor the prompt or any message
 * content (a provider's validation error may quote the input: that part is cut off).
 */
import { clipGraphemes } from '../../common/graphemes.js';
import type { GatewayError } from './gateway-error.js';

/** The logger shape the gateway writes to (pino's `warn`). */
export interface GatewayLog {
  warn(obj: Record<string, unknown>, msg: string): void;
}

/** What follows a failed attempt: a retry after `waitMs`, a repaired or redirected request, or nothing. */
export type AttemptOutcome = { next: 'retry'; waitMs: number } | { next: 'repair' | 'redirect' | 'give_up' };

/** Characters of the error message kept on the line. */
const LOGGED_MESSAGE_CHARS = 160;

/** Where a provider starts quoting what it was sent (pydantic's `input_value=`, `"input": ...`). */
const ECHOED_INPUT = /\binput_value\s*=|["']input["']\s*:|\binput:\s*\{/i;

/** Things that look like API keys (sk-..., Bearer tokens). */
const KEY_LIKE = /\b(?:sk|pk|rk|key)-[A-Za-z0-9_*.-]{6,}|Bearer\s+\S+/gi;

/** The error message made safe for a log line: no echoed input, no key, one line, capped. */
export function loggableMessage(message: string, apiKey?: string): string {
  let text = message;
  const echoed = ECHOED_INPUT.exec(text);
  if (echoed) text = `${text.slice(0, echoed.index)}…`;
  if (apiKey) text = text.split(apiKey).join('[key]');
  text = text.replace(KEY_LIKE, '[key]').replace(/\s+/g, ' ').trim();
  return clipGraphemes(text, LOGGED_MESSAGE_CHARS);
}

/**
 * Writes the line for failed attempt number `attempt` (1-based) of one call. `log` undefined
 * writes nothing.
 */
export function logFailedAttempt(
  log: GatewayLog | undefined,
  attempt: number,
  err: GatewayError,
  outcome: AttemptOutcome,
  apiKey?: string,
): void {
  if (!log) return;
  log.warn(
    {
      gateway: {
        attempt,
        status: err.upstreamStatus ?? null,
        kind: err.kind,
        reason: err.reason ?? null,
        code: err.providerCode ?? null,
        type: err.providerType ?? null,
        retryable: err.retryable,
        next: outcome.next,
        waitMs: outcome.next === 'retry' ? outcome.waitMs : null,
        message: loggableMessage(err.message, apiKey),
      },
    },
    'chat gateway attempt failed',
  );
}
