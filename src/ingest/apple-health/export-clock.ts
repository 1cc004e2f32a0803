/**
 * The Health app writes every date of an export with one UTC offset: the one of the moment it
 * exported (a run on a November morning in Los Angeles, exported in July, is `07:25:41 -0700`,
 * although the clocks there said 06:25 PST). The instant is right; its day and clock are not,
 * for every record of the other half of the year: one made between 23:00 and midnight in winter
 * is written on the next day by a summer export, and each export dates it by the season it was
 * made in.
 *
 * A record that names its zone (`HKTimeZone`) is read on that zone's clock (records.ts
 * inRecordZone). One that does not (steps, heart rate, most records) is read on the clock of the
 * zone the person lives in, the one Klebb has for them, when the export was made there: that
 * zone's offset at the export's date is the offset the export writes. Exported elsewhere (a trip,
 * a zone not set), the records are read as written.
 */
import { serverTimeZone } from '../../home/server-zone.js';
import { zoneOffsetAt } from '../hae/format/instant-zone.js';
import { knownZone } from '../hae/format/recorded-zone.js';
import { parseHaeTimestamp } from '../hae/format/timestamps.js';

/** A day whose whole length has the export's offset in the home zone. */
const SAME = 0;
/** A day with another offset for part or all of it: its stamps are read in the zone. */
const OTHER = 1;

/**
 * Tells which records of an export need the home zone's clock. Records come grouped by type and
 * in date order, so a day's answer is kept for the next record (a prefix compare, nothing made).
 */
export class ExportClock {
  /** The date of the last stamp looked at (a NUL first, which no stamp starts with). */
  private lastDay = '\u0000';
  private lastState = SAME;
  private readonly days = new Map<string, number>();

  private constructor(
    /** The home zone (an IANA name the runtime knows). */
    readonly zone: string,
    /** The export's offset as written at the end of its stamps (`-0700`). */
    private readonly offsetText: string,
    /** The same in minutes east of UTC. */
    private readonly offsetMinutes: number,
  ) {}

  /**
   * The clock of `exportDate` (`<ExportDate value>`) in `zone` (the person's IANA zone, the
   * process's when undefined): undefined when the zone's offset at that moment is not the one the
   * export writes (it was made elsewhere), when the date does not read, or the zone is unknown.
   */
  static of(exportDate: string | null, zone: string | undefined): ExportClock | undefined {
    if (exportDate === null) return undefined;
    const home = knownZone(zone ?? serverTimeZone());
    const t = parseHaeTimestamp(exportDate);
    if (home === undefined || !t || t.offsetMinutes === null || t.utc) return undefined;
    if (zoneOffsetAt(t.epochMs, home) !== t.offsetMinutes) return undefined;
    const m = /[+-]\d{4}$/.exec(exportDate.trimEnd());
    return m ? new ExportClock(home, m[0], t.offsetMinutes) : undefined;
  }

  /**
   * The zone to read a record with these stamps in (its HKTimeZone is not written): the home zone
   * when either stamp carries the export's offset on a day the zone's offset is another for at
   * least part of it (stampInZone then tells each stamp's own); undefined when both read right
   * as written.
   */
  zoneFor(start: string | undefined, end: string | undefined): string | undefined {
    return this.other(start) || this.other(end) ? this.zone : undefined;
  }

  /** Whether `stamp` is written with the export's offset on a day the zone has another. */
  private other(stamp: string | undefined): boolean {
    if (stamp === undefined || stamp.length < 16) return false;
    if (!stamp.startsWith(this.lastDay)) {
      if (!stamp.endsWith(this.offsetText)) return false;
      const day = stamp.slice(0, 10);
      let state = this.days.get(day);
      if (state === undefined) {
        state = this.stateOf(day);
        if (this.days.size >= 100_000) this.days.clear();
        this.days.set(day, state);
      }
      this.lastDay = day;
      this.lastState = state;
    } else if (this.lastState === SAME || !stamp.endsWith(this.offsetText)) return false;
    return this.lastState === OTHER;
  }

  /** SAME when the zone's offset is the export's from the day's start to its end (as written), else OTHER. */
  private stateOf(day: string): number {
    const midnight = Date.parse(`${day}T00:00:00Z`);
    if (Number.isNaN(midnight)) return SAME;
    const start = midnight - this.offsetMinutes * 60_000;
    const end = start + 86_400_000 - 60_000;
    return zoneOffsetAt(start, this.zone) === this.offsetMinutes &&
      zoneOffsetAt(end, this.zone) === this.offsetMinutes
      ? SAME
      : OTHER;
  }
}
