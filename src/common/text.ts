/**
 * Small text helpers shared by the server and the browser.
 */
import { clipGraphemes } from './graphemes.js';

/** The first line of `text`, trimmed and cut to `max` characters with an ellipsis ('' for a non-string). */
export function firstLine(text: unknown, max: number): string {
  if (typeof text !== 'string') return '';
  const line = text.split('\n')[0].trim();
  return clipGraphemes(line, max);
}

/**
 * Some of `values` named in a message that may echo any input back: the first `shown`, each cut
 * to `each` characters (never inside one), then how many more there are: "a, b, c and 97 more".
 * Naming all of them would make a message as large as the request that caused it.
 */
export function nameSome(values: readonly string[], shown: number, each = 40): string {
  const named = values.slice(0, Math.max(0, shown)).map((v) => clipGraphemes(v, each));
  const rest = values.length - named.length;
  return rest > 0 ? `${named.join(', ')} and ${rest} more` : named.join(', ');
}
