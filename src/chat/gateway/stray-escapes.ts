/**
 * Escape sequences a model wrote between the values of its arguments instead of inside a string:
 * Qwen3.5 writes `{"command": "view", "view_range": \n[2142, 2250]\n\n}` with `\n` as two
 * characters, a backslash and an n, where JSON only allows whitespace
 * (https://github.com/OpenHands/software-agent-sdk/issues/2488). Outside a string `\n`, `\r` and
 * `\t` can only mean the line break or tab they spell, which JSON reads as whitespace there.
 */

import { scanOutsideStrings } from './json-scan.js';

/**
 * `text` with each `\n`, `\r` or `\t` written outside a JSON string turned into a space; strings,
 * and their escapes, are left as they are. Returns `text` itself when it has none.
 */
export function withoutStrayEscapes(text: string): string {
  const at: number[] = [];
  scanOutsideStrings(text, (ch, i) => {
    if (ch === '\\' && /[nrt]/.test(text[i + 1] ?? '')) at.push(i);
  });
  if (at.length === 0) return text;
  let out = '';
  let from = 0;
  for (const i of at) {
    out += `${text.slice(from, i)} `;
    from = i + 2;
  }
  return out + text.slice(from);
}
