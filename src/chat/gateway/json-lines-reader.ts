/**
 * Reading a stream sent as JSON lines (one JSON object per line, no SSE framing), as some proxies
 * and Ollama-style servers send a streamed reply: text in (already UTF-8 decoded, in arbitrary
 * pieces), each line out to the same sink as SSE events. Lines end in LF or CRLF; blank lines are
 * skipped; a line `[DONE]` (or one that does use a `data:` prefix) is read as it would be in an
 * event stream, so a server mixing the two still works.
 */
import { GATEWAY_MAX_BODY_BYTES } from '../../limits.js';
import { type SseSink, SseTooLarge } from './sse-reader.js';

/** An incremental JSON-lines reader. */
export interface JsonLinesReader {
  /** Feeds decoded text. Returns true once the sink said the stream is complete. Throws SseTooLarge. */
  feed(text: string): boolean;
  /** The body ended: delivers a last line left without its newline. */
  end(): boolean;
}

/** The parsed object when `line` is one complete JSON object, else undefined. */
function parsedObject(line: string): unknown {
  if (line[0] !== '{' || line[line.length - 1] !== '}') return undefined;
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/** Creates a reader delivering each line's data to `sink.onData`. */
export function createJsonLinesReader(sink: SseSink): JsonLinesReader {
  let done = false;
  let pending = '';

  const line = (raw: string) => {
    let data = raw.trim();
    if (data === '') return;
    if (data.startsWith('data:')) data = data.slice(5).trim();
    if (!done && sink.onData(data, parsedObject(data))) done = true;
  };

  return {
    feed(text: string): boolean {
      pending += text;
      let start = 0;
      for (let nl = pending.indexOf('\n'); nl >= 0 && !done; nl = pending.indexOf('\n', start)) {
        line(pending.slice(start, nl));
        start = nl + 1;
      }
      pending = done ? '' : pending.slice(start);
      if (pending.length > GATEWAY_MAX_BODY_BYTES)
        throw new SseTooLarge('a gateway stream line exceeded the size limit');
      return done;
    },
    end(): boolean {
      if (pending !== '') line(pending);
      pending = '';
      return done;
    },
  };
}

/**
 * True when a body that starts like JSON is really JSON lines: its first line is a whole JSON
 * object and something follows it. undefined while that cannot be told yet (no line end, or
 * only white space after the first line so far); false for one JSON document (pretty-printed or
 * not).
 */
export function looksLikeJsonLines(body: string): boolean | undefined {
  const nl = body.indexOf('\n');
  if (nl < 0) return undefined;
  if (parsedObject(body.slice(0, nl).trim()) === undefined) return false;
  return body.slice(nl + 1).trim() === '' ? undefined : true;
}
