/**
 * The zone a sample was recorded in, when its metadata names it (HealthKit's `HKTimeZone`). An
 * Apple Health export, and an exporter that writes a sample's stamps on the phone's clock of the
 * moment it exports, date a night slept in Tokyo by a phone living in New York on New York's
 * clock; the metadata says where it happened. Such a stamp is marked with its zone
 * (`2024-06-10 10:00:00 -0400 [Asia/Tokyo]`), which timestamps.ts reads on that zone's day and
 * clock while the sample keeps the key of the stamp as written.
 */
import { isKnownZone, zoneOffsetAt } from './instant-zone.js';
import { parseHaeTimestamp } from './timestamps.js';

/**
 * `stamp` followed by `[zone]` when the zone's offset at that instant is not the one written;
 * `stamp` itself when it is (a sample recorded at home), when the stamp has no offset of its own,
 * names a zone already or does not read. `zone` is one the runtime knows (isKnownZone).
 */
export function stampInZone(stamp: string, zone: string): string {
  if (stamp.endsWith(']')) return stamp;
  const t = parseHaeTimestamp(stamp);
  if (!t || t.offsetMinutes === null || t.utc) return stamp;
  return zoneOffsetAt(t.epochMs, zone) === t.offsetMinutes ? stamp : `${stamp} [${zone}]`;
}

/** The zone `name` names, trimmed, when the runtime knows it; undefined otherwise. */
export function knownZone(name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  const zone = name.trim();
  return isKnownZone(zone) ? zone : undefined;
}

/** The keys of a pushed point or workout that hold its stamps. */
const STAMP_KEYS = [
  'date',
  'startDate',
  'endDate',
  'sleepStart',
  'sleepEnd',
  'inBedStart',
  'inBedEnd',
  'start',
  'end',
];

/**
 * The zone a pushed point's or workout's `metadata` names (`{"metadata": {"HKTimeZone":
 * "Asia/Tokyo"}}`, also under HealthKit's constant's name `HKMetadataKeyTimeZone`), when the
 * runtime knows it; undefined otherwise (most points carry no metadata: one property read).
 */
export function namedZone(point: unknown): string | undefined {
  if (point === null || typeof point !== 'object') return undefined;
  const meta = (point as { metadata?: unknown }).metadata;
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) return undefined;
  const m = meta as Record<string, unknown>;
  return knownZone(m.HKTimeZone ?? m.HKMetadataKeyTimeZone);
}

/**
 * A pushed point or workout with its stamps marked with `zone`, the zone its `metadata` names
 * (namedZone; looked up when not given); the object itself when it names none, or one the runtime
 * does not know.
 */
export function inItsZone<T>(point: T, zone = namedZone(point)): T {
  if (zone === undefined) return point;
  const p = point as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const key of STAMP_KEYS) {
    const v = p[key];
    if (typeof v !== 'string') continue;
    const zoned = stampInZone(v, zone);
    if (zoned === v) continue;
    out ??= { ...p };
    out[key] = zoned;
  }
  return (out ?? point) as T;
}
