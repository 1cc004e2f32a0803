/**
 * The error of an error response whose body is framed as an event stream. A server asked to
 * stream that refuses the request after it chose its stream framing (or a relay that answers a
 * streamed request in kind) sends its error status with the JSON error as an event:
 * `data: {"error": {...}}`, often followed by `data: [DONE]`. Read as one JSON document it is
 * not JSON at all, and the person saw the raw event text, braces and all.
 */
import { isErrorPayload } from './error-body.js';

/** A `data:` line's value: the field name, its colon and one optional space removed. */
const DATA_LINE = /^data:[ ]?(.*)$/;

/**
 * The JSON value an SSE-framed error body carries: the first event's data that is an error
 * payload, else the first that is JSON at all; undefined when no `data:` line holds JSON. Each
 * event's data lines are joined with a line feed, as the event-stream format has it.
 */
export function framedErrorValue(text: string): unknown {
  const values: unknown[] = [];
  for (const event of text.split(/\r\n\r\n|\n\n|\r\r/)) {
    const data = event
      .split(/\r\n|\n|\r/)
      .map((line) => DATA_LINE.exec(line)?.[1])
      .filter((v): v is string => v !== undefined);
    if (data.length === 0) continue;
    try {
      values.push(JSON.parse(data.join('\n')));
    } catch {
      // not JSON ([DONE], a comment's text): not the error
    }
  }
  return values.find(isErrorPayload) ?? values[0];
}
