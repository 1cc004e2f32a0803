/**
 * Colours written in manifests (`colour` of thresholds, chart series, combination sources) before
 * they reach a style: only plain CSS colour forms pass, so a hand-written or agent-written value
 * can never smuggle `url(...)`, `expression(...)` or another declaration into the page. Shared by
 * the server and the browser: no Node imports.
 */

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const FUNCTIONAL = /^(?:rgb|rgba|hsl|hsla|hwb|lab|lch|oklab|oklch)\(\s*[-+0-9.%\s,/a-z]*\)$/i;
const NAMED = /^[a-z]{3,30}$/i;
/** Words that are keywords rather than colours: they would inherit a colour from somewhere else. */
const NOT_COLOURS = new Set(['inherit', 'initial', 'unset', 'revert', 'none', 'auto']);

/**
 * `v` trimmed when it is a CSS colour in one of the plain forms: `#rgb`, `#rgba`, `#rrggbb`,
 * `#rrggbbaa`, a colour function of numbers (`rgb(14 165 233)`, `hsl(200, 80%, 50%)`,
 * `oklch(0.7 0.1 200 / 50%)`) or a colour name (`teal`, `currentColor`); otherwise undefined.
 * Names are not checked against the CSS list: an unknown name is ignored by the browser, which
 * is harmless.
 */
export function cssColour(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  if (t.length === 0 || t.length > 64) return undefined;
  if (HEX.test(t) || FUNCTIONAL.test(t)) return t;
  if (NAMED.test(t) && !NOT_COLOURS.has(t.toLowerCase())) return t;
  return undefined;
}
