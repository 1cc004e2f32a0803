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
