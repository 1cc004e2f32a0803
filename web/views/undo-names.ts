/**
 * The names of Settings › History's Undo buttons. Each is named by the change it undoes, but two
 * changes can have exactly the same summary (two rows added to one card), and a screen reader's
 * list of buttons then showed two identical names that could not be told apart. A summary that
 * repeats gets the change's time; changes made within the same second, still alike, get their
 * place among those alike ("2 of 3", newest first, as listed).
 */

/** One change as the list shows it: `ts` an ISO instant. */
export interface NamedChange {
  id: number;
  summary: string;
  ts: string;
}

/** How many times each of `names` occurs. */
function counts(names: string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const n of names) out.set(n, (out.get(n) ?? 0) + 1);
  return out;
}

/**
 * The name of each change's Undo (without the word "Undo"), by change id.
 * @param time formats an ISO instant as the list shows it.
 */
export function undoNames(changes: NamedChange[], time: (iso: string) => string): Map<number, string> {
  const bySummary = counts(changes.map((c) => c.summary));
  const timed = changes.map((c) =>
    (bySummary.get(c.summary) ?? 0) > 1 ? `${c.summary}, ${time(c.ts)}` : c.summary,
  );
  const byName = counts(timed);
  const seen = new Map<string, number>();
  const out = new Map<number, string>();
  changes.forEach((c, i) => {
    const name = timed[i];
    const total = byName.get(name) ?? 0;
    if (total < 2) out.set(c.id, name);
    else {
      const k = (seen.get(name) ?? 0) + 1;
      seen.set(name, k);
      out.set(c.id, `${name} (${k} of ${total})`);
    }
  });
  return out;
}
