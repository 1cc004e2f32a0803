/**
 * Keep-alive comments are signs of life, not progress. A relay waiting on its upstream (OpenRouter's
 * `: OPENROUTER PROCESSING`, llama.cpp's `:` pings, a proxy's heartbeats) sends them so proxies do
 * not close a quiet stream; each resets the idle timeout. But a relay whose upstream stalled keeps
 * sending them for ever: the idle timeout never fired and the turn waited until its deadline, or
 * for ever with the deadline turned off. Keep-alives alone may therefore hold a stream open only so
 * long: then it fails like a silent one.
 */

/**
 * True when `text` (one received piece of a stream) holds nothing but SSE comments and line ends:
 * a keep-alive, not data. A comment cut across two pieces reads as data once, which only errs on
 * the side of waiting.
 */
export function onlyKeepAlive(text: string): boolean {
  return text.split(/\r\n|\r|\n/).every((line) => line.trim() === '' || line.startsWith(':'));
}
