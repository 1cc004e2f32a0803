/**
 * The nickname a person gives a device that takes reminders ("Anna's phone"): one line of at most
 * MAX_PUSH_NICKNAME_CHARS characters counted as a person counts them (a family emoji, a flag or a
 * letter with a combining accent is one), as Settings shows it in the list of devices.
 */
import { controlProblem } from '../common/control-characters.js';
import { overGraphemes } from '../common/graphemes.js';
import { badRequest } from '../errors.js';
import { MAX_PUSH_NICKNAME_CHARS } from '../limits.js';

/**
 * The nickname to keep, trimmed; undefined when none was given (absent, null, or only spaces:
 * the device keeps the one it had).
 * @throws 400 INVALID_SUBSCRIPTION naming `body.nickname` for text longer than
 *   MAX_PUSH_NICKNAME_CHARS characters or holding a control character, a line break or an
 *   invisible formatting character (src/common/control-characters.ts).
 */
export function deviceNickname(value: string | null | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  const control = controlProblem(value);
  const problem = control
    ? `must be one line of text; it ${control}`
    : overGraphemes(value.trim(), MAX_PUSH_NICKNAME_CHARS)
      ? `must be at most ${MAX_PUSH_NICKNAME_CHARS} characters`
      : undefined;
  if (problem) {
    throw badRequest(
      `invalid subscription: nickname ${problem}`,
      [{ path: 'body.nickname', message: problem }],
      'INVALID_SUBSCRIPTION',
    );
  }
  return value.trim() || undefined;
}
