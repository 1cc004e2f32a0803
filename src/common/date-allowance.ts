/**
 * The date allowance of a card's web writes (`todayAllowed`
 * default true, `pastAllowed` default false, `futureAllowed` default false), as one rule for the
 * server, which enforces it (src/cards/write-policy.ts), and the browser, which disables ticks and
 * explains why before a person tries. "Today" is the person's calendar day. No Node
 * imports.
 */

/** The allowance flags as read from `meta.writeable` (absent = default). */
export interface DateAllowance {
  todayAllowed?: unknown;
  pastAllowed?: unknown;
  futureAllowed?: unknown;
}

/**
 * The sentence refusing a new row for `day` (`YYYY-MM-DD`) seen from `today`, or null when the
 * day is allowed: "This card doesn't take entries for today." / "... for past days." /
 * "... for future days."
 */
export function dateRefusal(w: DateAllowance | null | undefined, day: string, today: string): string | null {
  if (day === today) return w?.todayAllowed === false ? "This card doesn't take entries for today." : null;
  if (day < today) return w?.pastAllowed === true ? null : "This card doesn't take entries for past days.";
  return w?.futureAllowed === true ? null : "This card doesn't take entries for future days.";
}
