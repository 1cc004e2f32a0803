/**
 * Server-sent events to a browser (HTML Living Standard, "Server-sent events"): each event is
 * `id:`, `event:` and one `data:` line of JSON, then a blank line; `: ping` comments keep
 * proxies from closing a quiet stream (seed: every 15 s); `X-Accel-Buffering: no` stops nginx
 * buffering it. A client that goes away only mutes the stream: writes become no-ops and the work
 * behind it carries on (seed "Streaming").
 *
 * Writes never wait for the client, so a client that stops reading (a phone asleep with its
 * connection open) would have every later event queued in server memory. Once more than
 * SSE_MAX_BUFFERED_BYTES wait for it (on top of a replay burst), the stream ends instead: a last
 * `: closed: …` comment, then the response ends; a client that still does not read within
 * SSE_SLOW_CLIENT_GRACE_MS has its socket cut. A browser's EventSource, and the chat panel
 * (after Last-Event-ID), reconnect and catch up by re-reading.
 */
import type { ServerResponse } from 'node:http';
import { SSE_MAX_BUFFERED_BYTES, SSE_PING_INTERVAL_MS, SSE_SLOW_CLIENT_GRACE_MS } from '../limits.js';

/** The comment that ends a stream whose client read too slowly. */
export const SLOW_CLIENT_COMMENT = 'closed: this client read too slowly; reconnect to catch up';

/** How a stream is wired: its heartbeat, and who hears of a client dropped for reading too slowly. */
export interface SseOptions {
  pingIntervalMs?: number;
  onSlowClient?: () => void;
}

/** One open event stream. */
export class SseStream {
  private closed = false;
  private readonly ping: NodeJS.Timeout;
  /** Bytes of the replay burst, allowed on top of SSE_MAX_BUFFERED_BYTES. */
  private burst = 0;
  /** True once the client disconnected (or the stream was closed). */
  muted = false;

  /** Writes the response head at once and starts the heartbeat. */
  constructor(
    private readonly res: ServerResponse,
    private readonly opts: SseOptions = {},
  ) {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    res.on('close', () => {
      this.muted = true;
      clearInterval(this.ping);
    });
    this.ping = setInterval(() => this.comment('ping'), opts.pingIntervalMs ?? SSE_PING_INTERVAL_MS);
    this.ping.unref();
  }

  /** Sends one event; `id` is its number in the turn's log (for Last-Event-ID). */
  send(event: string, data: unknown, id?: number): void {
    if (this.muted || this.closed) return;
    const head = id === undefined ? '' : `id: ${id}\n`;
    this.write(`${head}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /**
   * Sends many events in one write (a replay of thousands of buffered events reaches the client
   * as one burst instead of thousands of small writes). The burst does not count against the
   * slow-client limit.
   */
  sendMany(events: { event: string; data: unknown; id?: number }[]): void {
    if (this.muted || this.closed || events.length === 0) return;
    const text = events
      .map(
        (e) =>
          `${e.id === undefined ? '' : `id: ${e.id}\n`}event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`,
      )
      .join('');
    this.burst += Buffer.byteLength(text);
    this.write(text);
  }

  /** Sends a comment line (`: text`), which clients ignore. */
  comment(text: string): void {
    if (this.muted || this.closed) return;
    this.write(`: ${text}\n\n`);
  }

  private write(text: string): void {
    this.res.write(text);
    if (this.res.writableLength > SSE_MAX_BUFFERED_BYTES + this.burst) this.dropSlowClient();
  }

  /** Ends the stream of a client that stopped reading, and cuts it if it still does not read. */
  private dropSlowClient(): void {
    this.closed = true;
    clearInterval(this.ping);
    this.opts.onSlowClient?.();
    const cut = setTimeout(() => this.res.destroy(), SSE_SLOW_CLIENT_GRACE_MS);
    cut.unref();
    this.res.on('close', () => clearTimeout(cut));
    // the connection goes too (not kept alive for another request): the client sees the end
    const socket = this.res.socket; // detached from the response once it finishes
    this.res.once('finish', () => socket?.end());
    this.res.end(`: ${SLOW_CLIENT_COMMENT}\n\n`);
  }

  /** Ends the response. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.ping);
    if (!this.res.writableEnded) this.res.end();
  }
}
