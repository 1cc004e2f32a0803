/**
 * Reading a server-sent-events body: text in (already UTF-8 decoded, in arbitrary pieces), the
 * `data` of each event out to a sink. Framing follows WHATWG (LF, CRLF or CR line ends, an
 * optional space after the colon, comment lines); the parser is eventsource-parser.
 */
import { createParser, type ParseError } from 'eventsource-parser';
import { GATEWAY_MAX_BODY_BYTES } from '../../limits.js';

/** Where the reader delivers: each event's data, each comment (trimmed). */
export interface SseSink {
  /** One event's data; return true to say the stream is complete (e.g. `[DONE]`). */
  onData(data: string): boolean;
  onComment?(comment: string): void;
}

/** An incremental SSE reader. */
export interface SseReader {
  /** Feeds decoded text. Returns true once the sink said the stream is complete. Throws on an oversized event. */
  feed(text: string): boolean;
  /** True once any event (data) was seen. */
  readonly sawEvent: boolean;
  /** True when the first few KB held nothing that looks like an SSE field or comment. */
  notAStream(): boolean;
}

/** Thrown by `feed` when one event grows past GATEWAY_MAX_BODY_BYTES. */
export class SseTooLarge extends Error {}

/** Creates a reader delivering to `sink`. */
export function createSseReader(sink: SseSink): SseReader {
  let done = false;
  let sawEvent = false;
  let tooLarge: ParseError | undefined;
  let sample = ''; // the first few KB, to tell "no events" from "not a stream"
  const parser = createParser({
    onEvent: (event) => {
      sawEvent = true;
      if (!done && sink.onData(event.data)) done = true;
    },
    onComment: (comment) => sink.onComment?.(comment.trim()),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') tooLarge = error;
    },
    maxBufferSize: GATEWAY_MAX_BODY_BYTES,
  });
  return {
    feed(text: string): boolean {
      if (sample.length < 4096) sample += text.slice(0, 4096 - sample.length);
      parser.feed(text);
      if (tooLarge) throw new SseTooLarge('a gateway stream event exceeded the size limit');
      return done;
    },
    get sawEvent() {
      return sawEvent;
    },
    notAStream() {
      return !sawEvent && !/^(?::|data:|event:|id:|retry:)/m.test(sample);
    },
  };
}
