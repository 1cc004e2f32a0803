/**
 * The newest webhook push that was refused (a 4xx or 5xx answer: a wrong token, a body too large
 * or not decodable) or answered `{ok: false}` (a body that is empty, not JSON, CSV, nested too
 * deep, or whose ingestion failed), for `lastFailedAttempt` of the status route.
 *
 * Kept in memory only: recording a refusal writes nothing, so a refused push never changes stored
 * data, and a flood of them (wrong tokens from anywhere) costs no disk writes. A restart forgets
 * it. What is kept is the answer's own words, never the body: the JSON parser's message quotes
 * the first characters of the body, and that quote is left out (the body itself is what
 * `ingest/quarantine/` keeps, as documented).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** One refused push, as `lastFailedAttempt` shows it. */
export interface RefusedPush {
  /**
   * ISO time of the answer (not of the request's arrival: a push that stored part of a body
   * before failing is recorded after, not before, its own push record).
   */
  receivedAt: string;
  /** The HTTP status answered (200 for an `{ok: false}` answer). */
  status: number;
  /** The error code of a 4xx or 5xx answer. */
  code?: string;
  /** What the answer said was wrong (its `error`, or its `warning`). */
  error: string;
  /** Bytes of the body read; null when it was refused before the body was read. */
  payloadBytes: number | null;
  /** Warnings of the push (none for a refused one). */
  warnings: string[];
}

/** The parser's own words inside a not-JSON warning: they quote the body. */
const PARSER_DETAIL =
  /^(the body is not valid JSON) \(.*\)(; (?:nothing was ingested|what was read before the error was ingested))/s;

/** `warning` without the parser's quote of the body (PARSER_DETAIL). */
export function withoutBodyQuote(warning: string): string {
  return warning.replace(PARSER_DETAIL, '$1$2');
}

/** Body sizes of requests being answered, as the route learnt them. */
const bodyBytes = new WeakMap<FastifyRequest, number>();

/** Notes that the webhook read `bytes` bytes of `req`'s body (payloadBytes of a refusal after that). */
export function noteBodyBytes(req: FastifyRequest, bytes: number): void {
  bodyBytes.set(req, bytes);
}

/** The newest refused push of one instance. */
export class RefusedPushes {
  private last: RefusedPush | undefined;

  /** The newest refusal, or undefined when none happened since the start. */
  get latest(): RefusedPush | undefined {
    return this.last;
  }

  /**
   * An `onSend` hook for the webhook route: records the answer when it is a refusal (status 4xx
   * or 5xx, or a 200 `{ok: false}`), and passes the payload on unchanged.
   */
  readonly onSend = async (req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const refused = reply.statusCode >= 400;
    if (typeof payload !== 'string' || !(refused || payload.startsWith('{"ok":false'))) return payload;
    let answer: { error?: unknown; code?: unknown; warning?: unknown } = {};
    try {
      answer = JSON.parse(payload);
    } catch {
      // an answer that is not JSON: its status is still recorded
    }
    const text = refused ? answer.error : answer.warning;
    this.last = {
      receivedAt: new Date().toISOString(),
      status: reply.statusCode,
      ...(refused && typeof answer.code === 'string' ? { code: answer.code } : {}),
      error: typeof text === 'string' ? withoutBodyQuote(text) : `HTTP ${reply.statusCode}`,
      payloadBytes: bodyBytes.get(req) ?? null,
      warnings: [],
    };
    return payload;
  };
}
