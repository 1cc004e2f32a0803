/**
 * The scheduled items of a card arranged for the read-only reports (`adherence-report`,
 * `schedule-timeline`): in the card's `data.groups` (`[{id, label, items: [item names]}]`, as in
 * the examples), then the items no group names. Also reads two less common layouts:
 * - `itemsPath` (the timeline's trends config, e.g. `"items"`): the key of the data object that
 *   holds the items, when it is not `items` or `current`;
 * - a card-level `meta.schedule` over a list of dated rows: the
 *   card is then one item with that schedule, and each dated row counts as a dose taken that day.
 * Shared by the browser and the server: no Node imports.
 */

import { itemDoseText } from './item-dose.js';
import {
  dayText,
  groupHeading,
  itemGroupName,
  itemName,
  type ScheduleItemRef,
  scheduleItems,
} from './schedule.js';
import { writePolicyOf } from './write-policy.js';

/** One item as the reports show it. */
export interface ReportItem {
  ref: ScheduleItemRef;
  /** `name`, else `label`, else "Item N". */
  name: string;
  /** The item's dose as text (`itemDoseText`). */
  dose?: string;
}

/** A heading and its items. The items no group names have `id` ''; their `label` is "Other", or null when the card has no groups at all. */
export interface ReportGroup {
  id: string;
  label: string | null;
  items: ReportItem[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The items of `data` (see the file comment for `itemsPath` and `meta.schedule`). */
export function reportItems(data: unknown, opts: { itemsPath?: unknown; meta?: unknown } = {}): ReportItem[] {
  let source: unknown = data;
  const path = typeof opts.itemsPath === 'string' ? opts.itemsPath.trim() : '';
  if (path && path !== 'items' && path !== 'current' && isObj(data) && Array.isArray(data[path])) {
    source = { items: data[path] };
  }
  let refs = scheduleItems(source);
  const meta = isObj(opts.meta) ? opts.meta : {};
  if (refs.length === 0 && Array.isArray(data) && isObj(meta.schedule)) {
    // each row is a dose, dated in the card's date field as its entries and calendar are
    const dateField = writePolicyOf(meta).dateField;
    const doses = data
      .filter(isObj)
      .map((r) => r[dateField])
      .filter((d): d is string => typeof d === 'string')
      .map((d) => ({ scheduledDate: dayText(d) ?? d.slice(0, 10), takenAt: d }));
    const name = typeof meta.label === 'string' ? meta.label : 'Schedule';
    // the card's earlier schedules, when its schedule was changed: each day judged by its own
    const history = Array.isArray(meta.schedule_history) ? { schedule_history: meta.schedule_history } : {};
    refs = [{ item: { name, schedule: meta.schedule, doses, ...history }, index: 0, list: '' }];
  }
  return refs.map((ref, i) => {
    const out: ReportItem = { ref, name: itemName(ref.item, i) };
    const dose = itemDoseText(ref.item);
    if (dose) out.dose = dose;
    return out;
  });
}

/**
 * `items` in the groups of `data.groups` (each group keeps the order of its `items` names, matched
 * against item names or ids; an item may appear in several groups), then an "Other" group for the
 * rest. Groups with no matching item are left out. Without groups: one group, `label` null, of
 * every item.
 */
export function groupReportItems(data: unknown, items: ReportItem[]): ReportGroup[] {
  const groups = isObj(data) && Array.isArray(data.groups) ? data.groups.filter(isObj) : [];
  const out: ReportGroup[] = [];
  const placed = new Set<ReportItem>();
  groups.forEach((g, gi) => {
    const names = Array.isArray(g.items) ? g.items : [];
    const members: ReportItem[] = [];
    for (const n of names) {
      const it = items.find((x) => x.name === n || x.ref.item.id === n);
      if (it && !members.includes(it)) members.push(it);
    }
    if (members.length === 0) return;
    for (const m of members) placed.add(m);
    const id = typeof g.id === 'string' ? g.id : `group-${gi + 1}`;
    const label =
      typeof g.label === 'string' && g.label.trim() !== ''
        ? g.label
        : typeof g.id === 'string'
          ? g.id
          : `Group ${gi + 1}`;
    out.push({ id, label, items: members });
  });
  // items that name their own group, in the order the groups first appear
  for (const it of items) {
    const name = placed.has(it) ? undefined : itemGroupName(it.ref.item);
    if (name === undefined) continue;
    let g = out.find((x) => x.id === name);
    if (!g) {
      g = { id: name, label: groupHeading(name), items: [] };
      out.push(g);
    }
    g.items.push(it);
    placed.add(it);
  }
  const rest = items.filter((i) => !placed.has(i));
  if (rest.length > 0) out.push({ id: '', label: out.length > 0 ? 'Other' : null, items: rest });
  return out;
}
