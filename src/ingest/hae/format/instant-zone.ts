/**
 * Instants written without the phone's wall clock: seconds or milliseconds since 1970, and stamps
 * ending in `Z`, `UTC` or `GMT` (what scripts and other exporters write, `toISOString()`). The
 * app itself writes the phone's offset (`+0200`), and such a stamp is read as written; an instant
 * in UTC says nothing of the phone's clock, so it is read on the person's clock instead: the zone
 * they set (Klebb's user settings, else the server's), as the rest of Klebb files an instant on
 * the person's day. An evening walk in Los Angeles sent as `2026-05-16T03:30:00Z` is 15 May.
 *
 * One exception: an instant at exactly midnight UTC is a date, not a moment: a script turning a
 * day into a timestamp (`new Date('2026-05-15')`, a daily total keyed by its day) gets midnight
 * UTC, which west of Greenwich is the evening before. It is kept on the date written, so daily
 * totals are not all moved back a day.
 */
import type { HaeTime } from './timestamps.js';

const DAY_MS = 86_400_000;
/** Offsets change only on a quarter hour: one offset worked out per zone and quarter hour. */
const SLOT_MS = 15 * 60_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, number>();

function formatter(zone: string | undefined): Intl.DateTimeFormat {
  const key = zone ?? '';
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(key, f);
  }
  return f;
}

/** The offset of `zone` (undefined: the process's) at instant `ms`, minutes east of UTC. */
function offsetMinutesAt(ms: number, zone: string | undefined): number {
  const slot = Math.floor(ms / SLOT_MS);
  const key = `${zone ?? ''}|${slot}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const at = slot * SLOT_MS;
    const f: Record<string, number> = {};
    for (const p of formatter(zone).formatToParts(at)) if (p.type !== 'literal') f[p.type] = Number(p.value);
    offset = Math.round((Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute) - at) / 60_000);
    if (offsets.size >= 10_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * `t`, an instant written in UTC (HaeTime.utc), as the wall clock of `zone` (an IANA name; the
 * process's zone when undefined): its date, time and offset there. Its instant and its canonical
 * spelling stay (the sample's key is the one it had before). At exactly midnight UTC, `t` itself
 * (module comment); with a zone this runtime does not know, `t` too.
 */
export function onPersonsClock(t: Readonly<HaeTime>, zone: string | undefined): Readonly<HaeTime> {
  if (t.epochMs % DAY_MS === 0) return t;
  let offset: number;
  try {
    offset = offsetMinutesAt(t.epochMs, zone);
  } catch {
    return t;
  }
  const wall = new Date(t.epochMs + offset * 60_000);
  return {
    ...t,
    date: `${String(wall.getUTCFullYear()).padStart(4, '0')}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}`,
    time: `${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}`,
    offsetMinutes: offset,
  };
}

/** Whether `zone` names a time zone this runtime knows (an IANA name such as `Europe/Paris`). */
export function isKnownZone(zone: string): boolean {
  if (zone === '' || zone.length > 64) return false;
  try {
    offsetMinutesAt(0, zone);
    return true;
  } catch {
    return false;
  }
}

/** The offset of `zone` at instant `ms`, minutes east of UTC (`zone` known: isKnownZone). */
export function zoneOffsetAt(ms: number, zone: string): number {
  return offsetMinutesAt(ms, zone);
}

/**
 * `t` on the wall clock of `zone` (known: isKnownZone), the zone a record or stamp names as where
 * it happened: its date, time and offset there, its instant and canonical spelling kept (the
 * sample's key is the one of the stamp as written). `writtenDate` is set to the date as written
 * when the zone's date is another. Unlike onPersonsClock, midnight UTC is no exception: the zone
 * is named, not guessed.
 */
export function onZoneClock(t: Readonly<HaeTime>, zone: string): Readonly<HaeTime> {
  const offset = offsetMinutesAt(t.epochMs, zone);
  if (offset === t.offsetMinutes) return t.utc ? { ...t, utc: false } : t;
  const wall = new Date(t.epochMs + offset * 60_000);
  const date = `${String(wall.getUTCFullYear()).padStart(4, '0')}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}`;
  const out: HaeTime = {
    ...t,
    date,
    time: `${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}`,
    offsetMinutes: offset,
    utc: false,
  };
  if (date !== t.date) out.writtenDate = t.date;
  return out;
}
