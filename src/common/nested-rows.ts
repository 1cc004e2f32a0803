/**
 * The rows of a card whose data is one object holding them (docs/MANIFEST-SCHEMA.md "Data
 * conventions"): `{"rows": [...]}`, `{"lab": "...", "findings": [...]}`, or rows in groups,
 * `{"categories": [{"name": "Lipids", "findings": [...]}, ...]}`, each row then carrying its
 * group's name as `category` (unless it has one). For the renderers that list rows (list-card,
 * table-list). Shared by the browser and the server: no Node imports.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The keys of `o` holding a list with at least one object. */
function listKeys(o: Obj): string[] {
  return Object.keys(o).filter((k) => Array.isArray(o[k]) && (o[k] as unknown[]).some(isObj));
}

/** A group's name: its `name`, `label`, `title` or `id`. */
function groupName(g: Obj): string | undefined {
  for (const k of ['name', 'label', 'title', 'id']) {
    const v = g[k];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  return undefined;
}

/**
 * The rows inside `data` when it is an object holding exactly one list of objects; when each of
 * those is a group holding exactly one list of objects itself, their rows, in order, with the
 * group's name. Null when `data` is no such object (a list is not looked into: it is the rows).
 */
export function rowsWithin(data: unknown): Obj[] | null {
  if (!isObj(data)) return null;
  const keys = listKeys(data);
  if (keys.length !== 1) return null;
  const list = (data[keys[0]] as unknown[]).filter(isObj);
  const grouped = list.every((g) => listKeys(g).length === 1);
  if (!grouped) return list;
  const out: Obj[] = [];
  for (const g of list) {
    const name = groupName(g);
    for (const row of (g[listKeys(g)[0]] as unknown[]).filter(isObj)) {
      out.push(name !== undefined && !Object.hasOwn(row, 'category') ? { category: name, ...row } : row);
    }
  }
  return out;
}
