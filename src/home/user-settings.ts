/**
 * Per-instance user settings in `HEALTH_HOME/user.json` (docs/API.md `POST
 * /api/user/tz`): for now the person's IANA time zone, which decides "today" for the agent and
 * for recency (until a browser reports one, the server's TZ).
 */
import fs from 'node:fs';
import path from 'node:path';
import { badRequest } from '../errors.js';
import { writeFileAtomic } from './atomic-write.js';

/** True for a time zone name this runtime knows (e.g. "Europe/Berlin", "UTC"). */
export function isValidTimeZone(tz: unknown): tz is string {
  if (typeof tz !== 'string' || tz === '' || tz.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** `+05:30`, `-0800`, `+5`, `UTC+05:30`, `GMT-3`: a fixed UTC offset written as a zone. */
const OFFSET_ZONE_RE = /^(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?$/i;

/**
 * Zones that keep one offset all year (no daylight saving in the current zone data), for the
 * offsets that are not whole hours (the `Etc/GMT±N` zones only cover whole hours).
 */
const FIXED_PART_HOUR_ZONES: Readonly<Record<number, string>> = {
  210: 'Asia/Tehran',
  270: 'Asia/Kabul',
  330: 'Asia/Kolkata',
  345: 'Asia/Kathmandu',
  390: 'Asia/Yangon',
  525: 'Australia/Eucla',
  570: 'Australia/Darwin',
  [-570]: 'Pacific/Marquesas',
};

/**
 * The IANA zone a fixed offset written as a zone name stands for, or undefined when the input is
 * no offset or no zone keeps that offset all year. Newer browsers may report an offset such as
 * `+05:30` as their zone, and Node 20's Intl refuses those names: whole hours become the
 * equivalent `Etc/GMT∓N` (its sign is inverted by POSIX convention: `+05:00` is `Etc/GMT-5`),
 * `00:00` is `UTC`, and the part-hour offsets in use map to a zone that keeps them all year.
 */
export function offsetZone(input: string): string | undefined {
  const m = OFFSET_ZONE_RE.exec(input.trim());
  if (!m) return undefined;
  const h = Number(m[2]);
  const min = m[3] === undefined ? 0 : Number(m[3]);
  if (min > 59) return undefined;
  const total = (m[1] === '-' ? -1 : 1) * (h * 60 + min);
  if (total === 0) return 'UTC';
  if (min === 0 && total <= 14 * 60 && total >= -12 * 60) return `Etc/GMT${total > 0 ? '-' : '+'}${h}`;
  return FIXED_PART_HOUR_ZONES[total];
}

/**
 * The runtime's spelling of a time zone the person sent: an IANA name in any case
 * ("europe/berlin" → "Europe/Berlin"), or a fixed offset mapped by offsetZone ("+05:30" →
 * "Asia/Kolkata"). Undefined when it names no zone this runtime can use.
 */
export function normaliseTimeZone(input: unknown): string | undefined {
  if (typeof input !== 'string' || input.length > 64) return undefined;
  if (isValidTimeZone(input))
    return new Intl.DateTimeFormat('en', { timeZone: input }).resolvedOptions().timeZone;
  return offsetZone(input);
}

/** The settings of one home, cached in memory and written atomically. */
export class UserSettings {
  private data: { tz?: string };
  private readonly file: string;
  /** Whether the zone read from the file was checked (on first use: Intl's zone data is large). */
  private checked = false;

  constructor(home: string) {
    this.file = path.join(home, 'user.json');
    try {
      const parsed = JSON.parse(fs.readFileSync(this.file, 'utf8'));
      this.data = parsed && typeof parsed === 'object' ? parsed : {};
    } catch {
      this.data = {};
    }
  }

  /** The reported time zone, or undefined (then the server's zone applies). */
  timeZone(): string | undefined {
    if (!this.checked) {
      // an offset (written by a newer runtime, or by hand) is read as its zone; a zone this runtime
      // does not know counts as none
      if (this.data.tz !== undefined && !isValidTimeZone(this.data.tz)) {
        const mapped = typeof this.data.tz === 'string' ? offsetZone(this.data.tz) : undefined;
        if (mapped === undefined) delete this.data.tz;
        else this.data.tz = mapped;
      }
      this.checked = true;
    }
    return this.data.tz;
  }

  /**
   * Records the person's time zone (an IANA name, or a fixed offset mapped by offsetZone).
   * @returns whether it changed.
   * @throws 400 naming `tz` when it names no zone this runtime can use.
   */
  setTimeZone(input: unknown): boolean {
    const tz = normaliseTimeZone(input);
    if (tz === undefined) {
      throw badRequest('tz must be an IANA time zone name such as "Europe/Berlin"', [
        {
          path: 'tz',
          message:
            input === undefined
              ? 'is required'
              : typeof input === 'string'
                ? OFFSET_ZONE_RE.test(input.trim())
                  ? 'an offset no time zone keeps all year; send the IANA name, such as "America/St_Johns"'
                  : 'unknown time zone'
                : 'must be a string',
        },
      ]);
    }
    if (this.timeZone() === tz) return false;
    const next = { ...this.data, tz };
    writeFileAtomic(this.file, `${JSON.stringify(next, null, 2)}\n`, 0o600);
    this.data = next;
    return true;
  }
}
