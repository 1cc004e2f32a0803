/**
 * A conversation title as it is kept: one line, control characters (NUL, a bell, an escape …) and
 * runs of whitespace each one space, invisible formatting characters (a direction override, a
 * zero-width space: src/common/control-characters.ts) removed, the ends trimmed. Shared by the
 * server, which stores it so, and the web app, which counts its length the same way. No Node
 * imports.
 */
import { withoutControls } from './control-characters.js';

/** `title` as one trimmed line ('' when nothing is left). */
export function oneLineTitle(title: string): string {
  return withoutControls(title).trim().replace(/\s+/g, ' ');
}
