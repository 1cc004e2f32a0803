/**
 * The changes a turn's tools made, in plain words, so that a turn failing after it wrote says
 * what it already changed ("added a row to water"). Only tools that change data are listed; a
 * read never counts as a change.
 */
import { isolateText } from '../../common/isolate-text.js';
import { lookupTable } from '../../common/lookup-table.js';

/** One change a tool call made (successfully). */
export interface AppliedWrite {
  /** Tool name. */
  tool: string;
  /** The arguments as canonical JSON (keys sorted), to recognise the same call again. */
  key: string;
  /** What the tool answered (the `role:"tool"` content), returned again for a repeated call. */
  content: string;
  /** The change in plain words. */
  summary: string;
}

type Describe = (card: string, args: Record<string, unknown>) => string;

/** Plain-words descriptions of the tools that change data, by tool name. */
const WRITE_TOOLS = lookupTable<Describe>({
  create_manifest: (card) => `created the card ${card}`,
  delete_manifest: (card) => `deleted the card ${card}`,
  patch_manifest: (card) => `changed the card ${card}`,
  write_manifest_data: (card) => `replaced the rows of ${card}`,
  append_row: (card) => `added a row to ${card}`,
  update_row: (card) => `changed a row of ${card}`,
  remove_row: (card) => `removed a row from ${card}`,
  reorder_rows: (card) => `reordered the rows of ${card}`,
  hide_card: (card) => `hid the card ${card}`,
  show_card: (card) => `showed the card ${card}`,
  set_notification: (card) => `set a reminder on ${card}`,
  remove_notification: (card) => `removed a reminder from ${card}`,
  note_feedback: () => 'noted your feedback',
});

function cardOf(args: Record<string, unknown>): string {
  const meta = args.manifest as { meta?: { id?: unknown } } | undefined;
  const id = [args.id, args.card_id, meta?.meta?.id].find((v) => typeof v === 'string' && v !== '');
  return typeof id === 'string' ? `"${isolateText(id)}"` : 'a card';
}

/** JSON with object keys sorted, so that the same arguments in another key order compare equal. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The change a successful call of `tool` with `args` made, or undefined when the tool only reads. */
export function describeWrite(
  tool: string,
  args: Record<string, unknown> | undefined,
  content: string,
): AppliedWrite | undefined {
  const describe = WRITE_TOOLS[tool];
  if (!describe) return undefined;
  const a = args ?? {};
  return { tool, key: `${tool} ${canonicalJson(a)}`, content, summary: describe(cardOf(a), a) };
}

/** One sentence listing the changes: "added a row to "water" and changed the card "weight"". */
export function listChanges(writes: AppliedWrite[]): string {
  const counted = new Map<string, number>();
  for (const w of writes) counted.set(w.summary, (counted.get(w.summary) ?? 0) + 1);
  const parts = [...counted].map(([s, n]) => (n > 1 ? `${s} (${n} times)` : s));
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}
