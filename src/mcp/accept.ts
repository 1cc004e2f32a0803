/**
 * How `/mcp` reads a client's `Accept` header: as HTTP media ranges (RFC 9110 §12.5.1), not as a
 * search for two literal strings. `*\/*`, `application/*` and `text/*` accept what they cover,
 * names are compared without case, parameters are ignored, and a range weighted `q=0` is refused.
 * No header at all accepts anything, as HTTP says.
 */
import type { IncomingMessage } from 'node:http';

/** The two answers `/mcp` gives a POST: one JSON object, or an event stream of messages. */
export const JSON_TYPE = 'application/json';
export const EVENT_STREAM_TYPE = 'text/event-stream';

/** Whether the Accept header `accept` (undefined when absent) accepts `type` (`text/event-stream`). */
export function accepts(accept: string | undefined, type: string): boolean {
  if (accept === undefined) return true;
  const [mainType] = type.split('/');
  return accept.split(',').some((part) => {
    const [range, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const refused = params.some((p) => /^q\s*=\s*0(?:\.0*)?$/.test(p));
    if (refused || range === '') return false;
    return range === '*/*' || range === `${mainType}/*` || range === type;
  });
}

/** What a request's Accept allows `/mcp` to answer with. */
export interface AcceptedAnswers {
  json: boolean;
  eventStream: boolean;
}

/** The answers the Accept header of `req` allows. */
export function acceptedAnswers(req: IncomingMessage): AcceptedAnswers {
  const accept = req.headers.accept;
  return { json: accepts(accept, JSON_TYPE), eventStream: accepts(accept, EVENT_STREAM_TYPE) };
}

/**
 * Rewrites the Accept header of `req` to the literal list the SDK's transport checks for
 * (`application/json, text/event-stream`), once the route has decided the client can read what
 * the session answers; the transport looks for the two strings as written and would refuse a
 * wildcard with 406.
 */
export function spellAcceptForTransport(req: IncomingMessage): void {
  const spelled = `${JSON_TYPE}, ${EVENT_STREAM_TYPE}`;
  req.headers.accept = spelled;
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) if (raw[i].toLowerCase() === 'accept') raw.splice(i, 2);
  raw.push('Accept', spelled);
}
