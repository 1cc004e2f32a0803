/**
 * The append operation shared by append-latency and json-server-peer: one request that adds a
 * new `{date, kg}` row, dated after the seeded rows and the previous appends. Each call waits for
 * the whole response before returning (strictly sequential appends).
 */
import { expectStatus, type HttpClient, type HttpResult } from './http.js';
import { weightRow } from './klebb.js';

export interface Appender {
  /** One append; resolves to its latency in ms (throws unless 201). */
  append(): Promise<number>;
  /** Appends made so far. */
  readonly done: number;
  /** The last 201 response (to check the row count). */
  readonly last: HttpResult | undefined;
}

/**
 * @param bodyOf the request body for a row (Klebb: `{value: row}`; json-server: the row itself).
 * @param firstRow index of the first appended row (dates continue after the seeded rows).
 */
export function appender(
  client: HttpClient,
  path: string,
  opts: {
    bodyOf: (row: { date: string; kg: number }) => unknown;
    firstRow: number;
    /** The index of the next row, when appenders share one counter (else firstRow, firstRow + 1, ...). */
    next?: () => number;
    token?: string;
  },
): Appender {
  let i = opts.firstRow;
  const next = opts.next ?? (() => i++);
  let done = 0;
  let last: HttpResult | undefined;
  return {
    async append() {
      const r = await client.request(path, { json: opts.bodyOf(weightRow(next())), token: opts.token });
      last = expectStatus(r, 201, `append to ${path}`);
      done++;
      return r.ms;
    },
    get done() {
      return done;
    },
    get last() {
      return last;
    },
  };
}
