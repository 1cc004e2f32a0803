/**
 * Who a web write is bound by, and the person's "today" for it. People (the local browser and
 * signed-in sessions) are bound by a card's date allowance: a row for a day after their today
 * needs `futureAllowed`. Agents with a bearer token are not (they act for the owner and may
 * back-fill or plan). "Today" is the person's calendar day in their time zone.
 */
import type { FastifyRequest } from 'fastify';
import { todayIn } from '../common/dates.js';
import { clipGraphemes } from '../common/graphemes.js';
import { badRequest } from '../errors.js';
import { normaliseTimeZone } from '../home/user-settings.js';
import type { Instance } from '../instance.js';

/** Principal kinds that are people, bound by the write policy's date allowance. */
export const PERSON_KINDS: readonly string[] = ['local', 'session'];

/** The header a client names its own IANA time zone in, for "today" of this write. */
export const TIME_ZONE_HEADER = 'x-klebb-time-zone';

/** True when the request is made by a person (PERSON_KINDS), not by an agent's token. */
export function isPersonRequest(req: FastifyRequest): boolean {
  return PERSON_KINDS.includes(req.principal?.kind ?? 'local');
}

/**
 * The time zone "today" is taken in for this request: the `X-Klebb-Time-Zone` header when sent (each
 * device its own, so a phone and a laptop in different zones each get their own today), else the
 * stored zone the browser last reported, else the server's. A fixed offset (`+05:30`, which
 * newer browsers may report) is read as its zone (offsetZone).
 * @throws 400 naming `headers.x-klebb-time-zone` when the header is not a known IANA zone.
 */
export function requestTimeZone(req: FastifyRequest, inst: Pick<Instance, 'user'>): string | undefined {
  const h = req.headers[TIME_ZONE_HEADER];
  const raw = Array.isArray(h) ? h[0] : h;
  if (raw === undefined || raw === '') return inst.user.timeZone();
  const tz = normaliseTimeZone(raw);
  if (tz === undefined) {
    throw badRequest(
      `${TIME_ZONE_HEADER} must be an IANA time zone like Europe/Berlin, got "${clipGraphemes(String(raw), 64)}"`,
      [{ path: `headers.${TIME_ZONE_HEADER}`, message: 'must be an IANA time zone' }],
    );
  }
  return tz;
}

/**
 * The person's day for a row write (card-data.ts WriteOptions.personDay): `{today, timeZone}`
 * when a person makes the request, undefined for an agent's token (not bound).
 * @throws 400 as requestTimeZone.
 */
export function personDayOf(
  req: FastifyRequest,
  inst: Pick<Instance, 'user'>,
): { today: string; timeZone?: string } | undefined {
  if (!isPersonRequest(req)) return undefined;
  const timeZone = requestTimeZone(req, inst);
  return { today: todayIn(timeZone), timeZone };
}
