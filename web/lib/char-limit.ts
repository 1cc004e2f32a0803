/**
 * A text field's length limit as the server counts it: characters as a person counts them (an
 * emoji, a flag, a ZWJ family, a letter with its combining accent is one). The browser's own
 * `maxlength` is never used for such a limit: Chromium counts UTF-16 units there, so a name with
 * emoji was cut short of the limit (a family emoji takes eleven units) or cut mid-emoji, leaving
 * half a character in the field. Instead the form says what is too long and holds back sending.
 */
import { overLimit } from '../../src/common/graphemes.js';

/**
 * A sentence saying that `text` (already trimmed as the server trims it) is over `max` characters
 * ("Name is 65 characters long; at most 64."), or null when it fits. A text far over the limit (a
 * paste of a whole page), or one whose characters carry stacks of combining marks, is not
 * counted one character at a time: "Name is too long; at most 64." (the rule: overLimit).
 */
export function lengthNotice(label: string, text: string, max: number): string | null {
  const over = overLimit(text, max);
  if (over === null) return null;
  return over === 'too long'
    ? `${label} is too long; at most ${max}.`
    : `${label} is ${over} characters long; at most ${max}.`;
}
