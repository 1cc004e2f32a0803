/**
 * The words shown while a turn runs ("Thinking…", "Updating Weight…"), from a `status`
 * event: the tool's kind of work and the card it names, by label when the card is known.
 */

import { lookupTable } from '../../src/common/lookup-table.js';
import type { TurnPhase } from './chat-types.js';

const VERBS = lookupTable<string>({
  create_manifest: 'Creating',
  delete_manifest: 'Deleting',
  patch_manifest: 'Updating',
  write_manifest_data: 'Updating',
  append_row: 'Updating',
  update_row: 'Updating',
  remove_row: 'Updating',
  reorder_rows: 'Updating',
  hide_card: 'Hiding',
  show_card: 'Showing',
  read_manifest: 'Reading',
  read_manifest_meta: 'Reading',
  read_manifest_rows: 'Reading',
  validate_manifest: 'Checking',
  set_notification: 'Setting a reminder on',
  remove_notification: 'Removing a reminder from',
});

/** Tools that name no card, with their own words. */
const PLAIN = lookupTable<string>({
  list_manifests: 'Looking through your cards…',
  get_recent_activity: 'Looking at recent entries…',
  hygiene_scan: 'Checking the dashboard…',
  read_doc: 'Reading the docs…',
  read_report: 'Reading a report…',
  note_feedback: 'Noting that down…',
});

/**
 * The status line for `phase`. `labelOf(id)` gives a card's label when known; an unknown card is
 * named by its id, a tool without a card by a generic phrase.
 */
export function statusLine(phase: TurnPhase, labelOf: (id: string) => string | undefined): string {
  if (phase.phase === 'thinking') return 'Thinking…';
  const verb = VERBS[phase.tool];
  if (verb && phase.id) return `${verb} ${labelOf(phase.id) ?? phase.id}…`;
  if (verb) return phase.tool === 'validate_manifest' ? 'Checking the card…' : `${verb} a card…`;
  return PLAIN[phase.tool] ?? 'Working…';
}
