/**
 * Why a push service turned a push down, in its own words, short: Apple answers
 * `{"reason":"BadJwtToken"}`, Mozilla's autopush `{"errno":…, "message":"…"}`, Google a line of
 * text. The status alone (403) does not tell a bad signature from a revoked key; the reason does,
 * and is what a person searches for. Shown in Settings and diagnostics, never trusted as markup.
 */
import { clipGraphemes } from '../common/graphemes.js';

/** Longest reason kept, in characters. */
export const MAX_PUSH_REASON_CHARS = 160;

/** The text of one answer body: its `reason`, `message` or `error` field when it is JSON, else the text. */
function textOf(body: string): string {
  try {
    const v = JSON.parse(body) as unknown;
    if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      for (const k of ['reason', 'message', 'error', 'error_description']) {
        if (typeof o[k] === 'string' && o[k] !== '') return o[k] as string;
      }
      return '';
    }
    return typeof v === 'string' ? v : '';
  } catch {
    return body;
  }
}

/**
 * The reason a push service gave in `body` (an error answer's body, any type), cleaned: no control
 * characters, one line, at most MAX_PUSH_REASON_CHARS; null when it gave none or sent a web page.
 */
export function pushReason(body: unknown): string | null {
  const raw = Buffer.isBuffer(body) ? body.toString('utf8') : typeof body === 'string' ? body : '';
  if (raw.trim() === '' || /^\s*</.test(raw)) return null;
  const text = textOf(raw)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? null : clipGraphemes(text, MAX_PUSH_REASON_CHARS);
}
