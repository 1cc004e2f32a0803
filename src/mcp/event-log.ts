/**
 * The messages an MCP session over HTTP sent on its event streams, kept so that a client whose
 * connection dropped (a laptop lid closed, a proxy's idle timeout, Wi-Fi changing) can reconnect
 * with `Last-Event-ID` and get what it missed, the answer to a tool call still running included,
 * as MCP's resumability asks. Each message gets an event id; the SDK's transport stores and
 * replays through this log. Kept in memory, per session, bounded: the newest MCP_REPLAY_EVENTS
 * messages and MCP_REPLAY_BYTES of them.
 */
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MCP_REPLAY_BYTES, MCP_REPLAY_EVENTS } from '../limits.js';

interface Kept {
  id: string;
  stream: string;
  message: JSONRPCMessage;
  bytes: number;
}

/** One session's event log (see the file comment). */
export class SessionEvents implements EventStore {
  private readonly kept: Kept[] = [];
  private bytes = 0;
  private seq = 0;

  /** Whether the event `id` is still kept (a reconnect after it can be answered). */
  has(id: string): boolean {
    return this.kept.some((e) => e.id === id);
  }

  async storeEvent(stream: string, message: JSONRPCMessage): Promise<string> {
    this.seq++;
    const id = `e${this.seq}`;
    const bytes = Buffer.byteLength(JSON.stringify(message));
    this.kept.push({ id, stream, message, bytes });
    this.bytes += bytes;
    while (this.kept.length > MCP_REPLAY_EVENTS || (this.bytes > MCP_REPLAY_BYTES && this.kept.length > 1)) {
      const old = this.kept.shift();
      if (old) this.bytes -= old.bytes;
    }
    return id;
  }

  async getStreamIdForEventId(id: string): Promise<string | undefined> {
    return this.kept.find((e) => e.id === id)?.stream;
  }

  /** Sends the messages of the stream of `lastId` that came after it; returns that stream. */
  async replayEventsAfter(
    lastId: string,
    { send }: { send: (id: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const at = this.kept.findIndex((e) => e.id === lastId);
    if (at < 0) return '';
    const { stream } = this.kept[at];
    for (const e of this.kept.slice(at + 1)) {
      // the transport's priming events (an empty message, only there to carry an id) are not sent again
      if (e.stream === stream && Object.keys(e.message).length > 0) await send(e.id, e.message);
    }
    return stream;
  }
}
