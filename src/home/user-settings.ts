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
      // a zone this runtime does not know (a hand-edited file) counts as none
      if (this.data.tz !== undefined && !isValidTimeZone(this.data.tz)) delete this.data.tz;
      this.checked = true;
    }
    return this.data.tz;
  }

  /**
   * Records the person's time zone. @returns whether it changed.
   * @throws 400 naming `tz` when it is not a known IANA zone.
   */
  setTimeZone(input: unknown): boolean {
    if (!isValidTimeZone(input)) {
      throw badRequest('tz must be an IANA time zone name such as "Europe/Berlin"', [
        {
          path: 'tz',
          message:
            input === undefined
              ? 'is required'
              : typeof input === 'string'
                ? 'unknown time zone'
                : 'must be a string',
        },
      ]);
    }
    // the runtime's own spelling ("europe/berlin" → "Europe/Berlin"), so one zone is one value
    const tz = new Intl.DateTimeFormat('en', { timeZone: input }).resolvedOptions().timeZone;
    if (this.timeZone() === tz) return false;
    const next = { ...this.data, tz };
    writeFileAtomic(this.file, `${JSON.stringify(next, null, 2)}\n`, 0o600);
    this.data = next;
    return true;
  }
}
