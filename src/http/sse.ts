/**
 * Server-sent events to a browser (HTML Living Standard, "Server-sent events"): each event is
 * `id:`, `event:` and one `data:` line of JSON, then a blank line; `: ping` comments keep
 * proxies from closing a quiet stream (seed: every 15 s); `X-Accel-Buffering: no` stops nginx
 * buffering it. A client that goes away only mutes the stream: writes become no-ops and the work
 * behind it carries on (seed "Streaming").
 */
import type { ServerResponse } from 'node:http';
import { SSE_PING_INTERVAL_MS } from '../limits.js';

/** One open event stream. */
export class SseStream {
  private closed = false;
  private readonly ping: NodeJS.Timeout;
  /** True once the client disconnected (or the stream was closed). */
  muted = false;

  /** Writes the response head at once and starts the heartbeat. */
  constructor(
    private readonly res: ServerResponse,
    pingIntervalMs = SSE_PING_INTERVAL_MS,
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
    this.ping = setInterval(() => this.comment('ping'), pingIntervalMs);
    this.ping.unref();
  }

  /** Sends one event; `id` is its number in the turn's log (for Last-Event-ID). */
  send(event: string, data: unknown, id?: number): void {
    if (this.muted || this.closed) return;
    const head = id === undefined ? '' : `id: ${id}\n`;
    this.res.write(`${head}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /**
   * Sends many events in one write (a replay of thousands of buffered events reaches the client
   * as one burst instead of thousands of small writes).
   */
  sendMany(events: { event: string; data: unknown; id?: number }[]): void {
    if (this.muted || this.closed || events.length === 0) return;
    this.res.write(
      events
        .map(
          (e) =>
            `${e.id === undefined ? '' : `id: ${e.id}\n`}event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`,
        )
        .join(''),
    );
  }

  /** Sends a comment line (`: text`), which clients ignore. */
  comment(text: string): void {
    if (this.muted || this.closed) return;
    this.res.write(`: ${text}\n\n`);
  }

  /** Ends the response. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.ping);
    if (!this.res.writableEnded) this.res.end();
  }
}
