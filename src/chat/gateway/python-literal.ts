/**
 * Reading a value written in Python's literal syntax as JSON. Models that write tool calls the
 * way Python prints a dict (Qwen3-Coder, "pythonic" callers such as Llama and LFM, servers that
 * pass the model's text on unparsed) send `{'id': 'water', 'cold': True, 'note': None}`, and some
 * leave a comma before a closing bracket. Each of these has exactly one JSON meaning.
 */

/** What a backslash escape in a single-quoted string stands for. */
const ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  n: '\n',
  r: '\r',
  t: '\t',
  b: '\b',
  f: '\f',
  '0': '\0',
};

/** Python's three literal words and their JSON spelling. */
const WORDS: Record<string, string> = { True: 'true', False: 'false', None: 'null' };

/** The end of a double-quoted string starting at `start` (the index after its closing quote). */
function doubleQuotedEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === '\\') i += 2;
    else if (text[i] === '"') return i + 1;
    else i++;
  }
  return text.length;
}

/**
 * The single-quoted string starting at `start`: its value and the index after its closing quote,
 * or undefined when it is not closed.
 */
function singleQuoted(text: string, start: number): { value: string; end: number } | undefined {
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === "'") return { value, end: i + 1 };
    if (ch !== '\\' || i + 1 >= text.length) {
      value += ch;
      i++;
      continue;
    }
    const next = text[i + 1];
    const hex = next === 'u' ? text.slice(i + 2, i + 6) : next === 'x' ? text.slice(i + 2, i + 4) : '';
    if (hex !== '' && /^[0-9a-fA-F]+$/.test(hex) && hex.length === (next === 'u' ? 4 : 2)) {
      value += String.fromCharCode(Number.parseInt(hex, 16));
      i += 2 + hex.length;
    } else {
      value += ESCAPES[next] ?? `\\${next}`;
      i += 2;
    }
  }
  return undefined;
}

/**
 * `text` rewritten as JSON where it uses Python's literal syntax: single-quoted strings become
 * double-quoted ones, the bare words True, False and None become true, false and null, and a
 * comma right before a closing `}` or `]` is dropped; double-quoted strings and everything else
 * are kept as written. Undefined when nothing needed rewriting (the text is not in that syntax).
 * The result is not checked: it parses only when the text was a whole value in that syntax.
 */
export function pythonLiteralAsJson(text: string): string | undefined {
  let out = '';
  let changed = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') {
      const end = doubleQuotedEnd(text, i);
      out += text.slice(i, end);
      i = end;
    } else if (ch === "'") {
      const string = singleQuoted(text, i);
      if (!string) {
        // an apostrophe in prose after the value, or a string cut off: left as it is
        out += text.slice(i);
        break;
      }
      out += JSON.stringify(string.value);
      changed = true;
      i = string.end;
    } else if (/[A-Za-z_]/.test(ch)) {
      const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))?.[0] ?? ch;
      const json = WORDS[word];
      if (json !== undefined) changed = true;
      out += json ?? word;
      i += word.length;
    } else if (ch === ',' && /^,\s*[}\]]/.test(text.slice(i, i + 64))) {
      changed = true;
      i++;
    } else {
      out += ch;
      i++;
    }
  }
  return changed ? out : undefined;
}
