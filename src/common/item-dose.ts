/**
 * The dose of a scheduled item as text ("2000 IU", "0.25 mg", "72.5 kg · 4×8"), from whichever way
 * its card wrote it (docs/MANIFEST-SCHEMA.md "Schedule blocks"): `dose` as text or a number; else
 * `dose_label` (`doseLabel`); else an amount with its unit, `dose_amount` + `dose_unit`
 * (`dose_units`, camelCase too), or the unit in the key, `dose_mg: 0.25` (with `dose_units` when it
 * names the unit). Shared by the browser and the server: no Node imports.
 */

type Obj = Record<string, unknown>;

const text = (v: unknown): string | undefined => {
  if (typeof v === 'string' && v.trim() !== '') return v.trim();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
};

const first = (item: Obj, keys: string[]): unknown => {
  for (const k of keys)
    if (Object.hasOwn(item, k) && item[k] !== undefined && item[k] !== null) return item[k];
  return undefined;
};

const UNIT_KEYS = ['dose_units', 'dose_unit', 'doseUnits', 'doseUnit'];
/** `dose_<unit>` keys that are not an amount in that unit. */
const NOT_A_UNIT = new Set([
  'units',
  'unit',
  'label',
  'amount',
  'text',
  'notes',
  'note',
  'time',
  'times',
  'form',
]);

/** The amount and unit written as `dose_amount` + `dose_unit`, or `dose_mg: 0.25`. */
function amountText(item: Obj): string | undefined {
  const unit = text(first(item, UNIT_KEYS));
  const amount = first(item, ['dose_amount', 'doseAmount']);
  if (typeof amount === 'number' && Number.isFinite(amount))
    return unit ? `${amount} ${unit}` : String(amount);
  for (const [key, v] of Object.entries(item)) {
    const m = /^dose_([a-zA-Z]+)$/.exec(key);
    if (!m || NOT_A_UNIT.has(m[1].toLowerCase()) || typeof v !== 'number' || !Number.isFinite(v)) continue;
    return `${v} ${unit ?? m[1]}`;
  }
  return undefined;
}

/** The item's dose as text, or undefined when it names none. */
export function itemDoseText(item: unknown): string | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
  const it = item as Obj;
  return text(it.dose) ?? text(first(it, ['dose_label', 'doseLabel'])) ?? amountText(it);
}
