/**
 * The form of a JSON text, whole or cut off anywhere, that two serialisations of the same value
 * share: whitespace outside strings dropped, and every string written with one escaping (`\u00e9`
 * and `é`, `\/` and `/` are the same character). A server that streamed a call's arguments in one
 * serialisation and then sends them whole in another (Python's `json.dumps`, with its spaces and
 * `\uXXXX` escapes) writes texts whose forms are equal, or one the start of the other.
 */

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** One UTF-16 code unit as it is written inside a JSON string in the shared form. */
function written(unit: string): string {
  return JSON.stringify(unit).slice(1, -1);
}

/**
 * The shared form of `text` (see above). A string left open at the end stays open; an escape cut
 * off at the end is left out, since its character is not known yet. Numbers, literals and
 * punctuation are kept as written.
 */
export function jsonTextForm(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (!inString) {
      if (ch === ' ' || ch === '\n' || ch === '\r' || ch === '\t') continue;
      out += ch;
      if (ch === '"') inString = true;
      continue;
    }
    if (ch === '"') {
      out += ch;
      inString = false;
      continue;
    }
    if (ch !== '\\') {
      out += written(ch);
      continue;
    }
    const next = text[i + 1];
    if (next === undefined) break; // an escape cut off at the end
    if (next === 'u') {
      const hex = text.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
        if (i + 6 > text.length) break; // cut off inside the escape
        out += `\\u${hex}`; // not valid JSON: kept as written
        i += 5;
        continue;
      }
      out += written(String.fromCharCode(Number.parseInt(hex, 16)));
      i += 5;
      continue;
    }
    const simple = SIMPLE_ESCAPES[next];
    out += simple === undefined ? `\\${next}` : written(simple);
    i += 1;
  }
  return out;
}
