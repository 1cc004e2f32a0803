/**
 * Escape sequences a model wrote between the values of its arguments instead of inside a string:
 * Qwen3.5 writes `{"command": "view", "view_range": \n[2142, 2250]\n\n}` with `\n` as two
 * characters, a backslash and an n, where JSON only allows whitespace
 * (https://github.com/OpenHands/software-agent-sdk/issues/2488). Outside a string `\n`, `\r` and
 * `\t` can only mean the line break or tab they spell, which JSON reads as whitespace there.
 */

/**
 * `text` with each `\n`, `\r` or `\t` written outside a JSON string turned into a space; strings,
 * and their escapes, are left as they are. Returns `text` itself when it has none.
 */
export function withoutStrayEscapes(text: string): string {
  let out = '';
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '\\' && /[nrt]/.test(text[i + 1] ?? '')) {
      out += `${text.slice(from, i)} `;
      from = i + 2;
      i++;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}
