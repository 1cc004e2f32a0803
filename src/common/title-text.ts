/**
 * A conversation title as it is kept: one line, control characters (NUL, a bell, an escape …) and
 * runs of whitespace each one space, the ends trimmed. Shared by the server, which stores it so,
 * and the web app, which counts its length the same way. No Node imports.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]+/g;

/** `title` as one trimmed line ('' when nothing is left). */
export function oneLineTitle(title: string): string {
  return title.replace(CONTROLS, ' ').trim().replace(/\s+/g, ' ');
}
