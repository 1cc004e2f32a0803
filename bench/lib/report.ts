/**
 * How a benchmark reports: a list of figures (key, label, value, unit, optional target), printed
 * as a table. Targets are shown with whether the figure reaches them; nothing here asserts or
 * changes the exit code, a missed target is information, not a failure.
 */
import { round } from './stats.js';

/** A speed target: the figure should be `op` `value`. */
export interface Target {
  op: '<' | '<=' | '>' | '>=';
  value: number;
}

/** One measured figure. `key` is the name in the JSON line. */
export interface Figure {
  key: string;
  label: string;
  value: number;
  unit: string;
  target?: Target;
}

/** What one benchmark hands back to the runner. */
export interface BenchResult {
  name: string;
  title: string;
  figures: Figure[];
  /** How it was measured: free-form lines printed under the table and kept in the JSON. */
  notes: string[];
  durationS: number;
}

/** Whether `value` reaches `t` (undefined when there is no target or no value). */
export function meets(value: number, t?: Target): boolean | undefined {
  if (!t || !Number.isFinite(value)) return undefined;
  switch (t.op) {
    case '<':
      return value < t.value;
    case '<=':
      return value <= t.value;
    case '>':
      return value > t.value;
    case '>=':
      return value >= t.value;
  }
}

function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  const a = Math.abs(v);
  if (a >= 1000) return Math.round(v).toLocaleString('en-US');
  if (a >= 100) return v.toFixed(1);
  if (a >= 10) return v.toFixed(2);
  return v.toFixed(3);
}

const OPS: Record<Target['op'], string> = { '<': '<', '<=': '≤', '>': '>', '>=': '≥' };

/** The table of one result, as text. */
export function formatTable(r: BenchResult): string {
  const rows = r.figures.map((f) => {
    const ok = meets(f.value, f.target);
    return [
      f.label,
      fmt(f.value),
      f.unit,
      f.target ? `${OPS[f.target.op]} ${f.target.value}` : '',
      ok === undefined ? '' : ok ? 'met' : 'MISSED',
    ];
  });
  const head = ['figure', 'value', 'unit', 'target', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 1 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const out = [
    '',
    `== ${r.title} (${r.name}, ${r.durationS.toFixed(1)} s) ==`,
    line(head),
    rule,
    ...rows.map(line),
  ];
  for (const n of r.notes) out.push(`  note: ${n}`);
  return out.join('\n');
}

/** The figures of one result as a flat `{key: value}` object for the JSON line. */
export function figuresJson(r: BenchResult): Record<string, number> {
  const o: Record<string, number> = {};
  for (const f of r.figures) o[f.key] = round(f.value, 3);
  return o;
}

/** Progress messages go to stderr so stdout holds only the tables and the JSON line. */
export function progress(msg: string): void {
  process.stderr.write(`[bench] ${msg}\n`);
}
