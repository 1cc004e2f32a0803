/**
 * The server's own time zone, used until the person's app reports theirs (user.json). The runtime
 * names it from TZ or /etc/localtime, and not always as a zone it can then use: TZ set but empty
 * (a compose file's `TZ: ${TZ}` on a host without TZ, systemd's `Environment=TZ=`) is named
 * 'Etc/Unknown', which every date routine then refuses with a RangeError (a pause of reminders
 * answered 500, the scheduler and the chat failing on each use), and a name it does not know
 * (`TZ=Europe/Berln`) is named undefined. The clock runs on UTC in both cases, so UTC is the zone.
 */

/** True when `zone` is a name Intl's date routines accept. */
function usableZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone === '') return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The runtime's zone as an IANA name Intl accepts, 'UTC' when it names none it can use. */
export function serverTimeZone(): string {
  const zone: unknown = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return usableZone(zone) ? zone : 'UTC';
}

/**
 * A start-up warning when TZ is set to something the runtime does not read as a zone (an empty
 * value, a misspelt name), saying the server's clock counts as UTC; null otherwise.
 */
export function serverZoneWarning(env: Record<string, string | undefined>): string | null {
  const tz = env.TZ;
  if (tz === undefined) return null;
  if (usableZone(Intl.DateTimeFormat().resolvedOptions().timeZone)) return null;
  return `TZ: ${JSON.stringify(tz)} is not a time zone name this server knows (such as "Europe/Berlin"); its clock counts as UTC until the web app reports the person's zone`;
}
