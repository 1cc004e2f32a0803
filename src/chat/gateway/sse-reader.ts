/**
 * Reading a server-sent-events body: text in (already UTF-8 decoded, in arbitrary pieces), the
 * `data` of each event out to a sink. Lines end in LF, CRLF or CR (a CRLF split across two
 * pieces included); one optional space after the colon is removed; comment lines (`:`) go to
 * `onComment`; a leading byte-order mark is dropped. Tolerances real gateways need: events
 * separated by a single newline (no blank line) are still told apart, because an event whose
 * data already holds a complete JSON object (or a JSON string holding one) is delivered at once,
 * without waiting for a blank line that may never come. An error reported beside the data rather than in it, as an `event:
 * error` event (Anthropic-style servers) or as a line whose field is `error` instead of `data`
 * (llama.cpp's server once wrote its stream errors so), is delivered with the event name 'error'.
 * A data line whose value repeats the field name (`data: data: {…}`: a server that wrote the prefix
 * itself and let its SSE framework add another) is read without the repeat.
 */
import { GATEWAY_MAX_BODY_BYTES } from '../../limits.js';
import { jsonTextValue } from './reply-envelope.js';

/** Where the reader delivers: each event's data (and its parsed JSON when known), each comment. */
export interface SseSink {
  /**
   * One event's data; return true to say the stream is complete (e.g. `[DONE]`). `event` is the
   * event's name when it has one ('error' for an error event or an `error:` line).
   */
  onData(data: string, parsed?: unknown, event?: string): boolean;
  onComment?(comment: string): void;
}

/** An incremental SSE reader. */
export interface SseReader {
  /** Feeds decoded text. Returns true once the sink said the stream is complete. Throws SseTooLarge. */
  feed(text: string): boolean;
  /** The body ended: delivers a last event left without its blank line. */
  end(): boolean;
  /** True once any event (data) was seen. */
  readonly sawEvent: boolean;
  /** True when the first few KB held nothing that looks like an SSE field or comment. */
  notAStream(): boolean;
}

/** The end marker, also encoded as a JSON string (`"[DONE]"`). */
const DONE = /^\s*(?:\[DONE\]|"\s*\[DONE\]\s*")\s*$/;

/** Thrown by `feed` when one line or event grows past GATEWAY_MAX_BODY_BYTES. */
export class SseTooLarge extends Error {}

/**
 * The parsed object when `data` is one complete JSON object, or a JSON string holding one (an event
 * encoded twice), else undefined.
 */
function completeJson(data: string): unknown {
  const t = data.trim();
  if (t[0] === '"' && t[t.length - 1] === '"') return jsonTextValue(t);
  if (t[0] !== '{' || t[t.length - 1] !== '}') return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

/** Creates a reader delivering to `sink`. */
export function createSseReader(sink: SseSink): SseReader {
  let done = false;
  let sawEvent = false;
  let sample = ''; // the first few KB, to tell "no events" from "not a stream"
  let pending = ''; // an unfinished line
  let data: string[] | undefined; // data lines of the current event
  let eventName: string | undefined; // the current event's `event:` field
  let skipLf = false; // the last piece ended in CR: a leading LF of the next belongs to it
  let first = true;

  const dispatch = (parsed?: unknown) => {
    if (data === undefined) {
      eventName = undefined;
      return;
    }
    const text = data.join('\n');
    const name = eventName;
    data = undefined;
    eventName = undefined;
    sawEvent = true;
    if (!done && sink.onData(text, parsed, name)) done = true;
  };
  const line = (raw: string) => {
    if (raw === '') return dispatch();
    if (raw[0] === ':') return sink.onComment?.(raw.slice(1).trim());
    const colon = raw.indexOf(':');
    const field = colon < 0 ? raw : raw.slice(0, colon);
    let value = colon < 0 ? '' : raw.slice(colon + 1);
    if (value[0] === ' ') value = value.slice(1);
    if (field === 'event') {
      eventName = value.trim();
      return;
    }
    if (field === 'error') {
      // a server that names the field after what it carries: the error is this event's data
      dispatch();
      eventName = 'error';
      data = [value];
      return;
    }
    if (field !== 'data') return; // id, retry and unknown fields carry nothing we use
    // a server that wrote the field name itself and let its framework add another: `data: data: {…}`
    while (value.startsWith('data:')) value = value.slice(value[5] === ' ' ? 6 : 5);
    if (data !== undefined && data.length > 0) {
      // a data line after a complete object with no blank line between: a new event
      const parsed = completeJson(data.join('\n'));
      if (parsed !== undefined) dispatch(parsed);
    }
    data ??= [];
    data.push(value);
    const parsed = completeJson(value);
    if (parsed !== undefined && data.length === 1) dispatch(parsed);
    else if (data.length === 1 && DONE.test(value)) dispatch();
  };

  return {
    feed(text: string): boolean {
      if (text === '') return done;
      if (first) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      if (sample.length < 4096) sample += text.slice(0, 4096 - sample.length);
      let i = 0;
      if (skipLf && text[0] === '\n') i = 1;
      skipLf = false;
      let start = i;
      for (; i < text.length; i++) {
        const ch = text.charCodeAt(i);
        if (ch !== 10 && ch !== 13) continue;
        line(pending + text.slice(start, i));
        pending = '';
        if (ch === 13) {
          if (i + 1 < text.length) {
            if (text.charCodeAt(i + 1) === 10) i++;
          } else skipLf = true;
        }
        start = i + 1;
        if (done) return true;
      }
      pending += text.slice(start);
      if (pending.length > GATEWAY_MAX_BODY_BYTES)
        throw new SseTooLarge('a gateway stream event exceeded the size limit');
      return done;
    },
    end(): boolean {
      if (pending !== '') {
        line(pending);
        pending = '';
      }
      // an event the body ended without a blank line after (the SSE rules drop it; a gateway cut
      // short may still have said everything)
      if (data !== undefined) {
        const parsed = completeJson(data.join('\n'));
        if (parsed !== undefined || DONE.test(data.join('')) || eventName === 'error') dispatch(parsed);
      }
      return done;
    },
    get sawEvent() {
      return sawEvent;
    },
    notAStream() {
      return !sawEvent && !/^(?::|data:|event:|id:|retry:|error:)/m.test(sample);
    },
  };
}
