/**
 * An error a relay reports after the answer already finished: the last chunk carried
 * `finish_reason: "stop"` (or `tool_calls`, `length`), and then `data: {"error": ...}` or
 * `event: error` follows, before `[DONE]` or the end of the stream. Relays and proxies that time
 * out waiting for the end marker or the usage chunk write their idle-timeout error into the
 * stream they already passed the whole answer through ("Stream timeout: no data received for
 * 30000ms", https://github.com/zhushanwen321/llm-simple-router/pull/179; GoModel's
 * `stream_incomplete`, https://github.com/ENTERPILOT/GoModel/pull/1048). The answer is whole and
 * stands; the person is not shown an error about the bytes after it. A content filter's or a
 * refusal's verdict is about the answer itself, and still fails it.
 */
import type { GatewayError } from './gateway-error.js';

/** Failures about the answer itself, which still count after its finish_reason. */
const ABOUT_THE_ANSWER = new Set(['content_filter', 'content_refused', 'refused']);

/**
 * True when `failure`, reported in the stream after the reply finished cleanly (`finished`: it has
 * a finish_reason that is not a failure), is no part of the reply and is only noted.
 */
export function ignoredAfterFinish(failure: GatewayError, finished: boolean): boolean {
  return finished && !ABOUT_THE_ANSWER.has(failure.reason ?? '');
}

/** The warning that notes an error ignored after the answer had finished. */
export function lateErrorWarning(failure: GatewayError): string {
  return `ignored an error the stream reported after the answer had finished: ${failure.message.slice(0, 120)}`;
}
