/**
 * Reading past a Content-Length that counted too few bytes. Proxies that measure a UTF-8 body as
 * a JavaScript string declare its characters, not its bytes: every character outside ASCII makes
 * the declared length short, and Node's parser ends the body there, cutting the reply (often
 * mid-character) and dropping the rest as junk. A raw tap keeps the bytes the socket delivered, so
 * when the declared body is not a whole reply, the bytes after it can still be read, up to the
 * end of the connection (we asked for `Connection: close`; one request, one response).
 */
import type { Socket } from 'node:net';

/** The raw bytes of one connection, kept until the response is known to need them. */
export interface RawTap {
  /** Stops keeping bytes: the body is framed otherwise, or was read whole. */
  stop(): void;
  /**
   * Reads on past a body of `declared` bytes: the bytes already received after it, then every
   * later byte, go to `onData`; `onEnd` is called once, when the connection ends.
   */
  readOn(declared: number, onData: (chunk: Buffer) => void, onEnd: () => void): void;
}

/** Where the body starts in `raw`: after the head, past any 1xx interim heads; undefined if unseen. */
export function bodyStart(raw: Buffer): number | undefined {
  const text = raw.toString('latin1', 0, Math.min(raw.length, 256 * 1024));
  let pos = 0;
  for (;;) {
    const crlf = text.indexOf('\r\n\r\n', pos);
    const lf = text.indexOf('\n\n', pos);
    if (crlf < 0 && lf < 0) return undefined;
    const end = lf < 0 || (crlf >= 0 && crlf < lf) ? crlf + 4 : lf + 2;
    // an interim head (100 Continue, 103 Early Hints) precedes the real one
    if (!/^HTTP\/\d(?:\.\d)?\s+1\d\d\b/.test(text.slice(pos, end))) return end;
    pos = end;
  }
}

/**
 * Taps `socket`, keeping at most `cap` bytes. Node would close the connection as soon as the
 * declared body was read; the tap leaves it open, so bytes the server is still sending arrive (the
 * exchange is destroyed by its owner once settled, which closes it).
 */
export function tapSocket(socket: Socket, cap: number): RawTap {
  let chunks: Buffer[] = [];
  let size = 0;
  let forward: ((chunk: Buffer) => void) | undefined;
  const originalDestroySoon = socket.destroySoon;
  const onRaw = (chunk: Buffer) => {
    if (forward) return forward(chunk);
    size += chunk.length;
    if (size > cap) return stop();
    chunks.push(chunk);
  };
  const stop = () => {
    socket.removeListener('data', onRaw);
    socket.destroySoon = originalDestroySoon;
    chunks = [];
  };
  socket.on('data', onRaw);
  // not even a half-close (many servers drop a connection whose client stopped sending): the
  // socket is only marked as done writing, which is what Node's client checks for afterwards
  socket.destroySoon = () => {
    (socket as { writable: boolean }).writable = false;
  };
  return {
    stop,
    readOn(declared, onData, onEnd) {
      const raw = Buffer.concat(chunks);
      chunks = [];
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        forward = () => {};
        onEnd();
      };
      const start = bodyStart(raw);
      if (start === undefined) return end();
      // Node's parser would read the extra bytes as a second response and drop the connection
      for (const listener of socket.listeners('data'))
        if (listener !== onRaw) socket.removeListener('data', listener as (chunk: Buffer) => void);
      forward = (chunk) => {
        if (!ended) onData(chunk);
      };
      const extra = raw.subarray(start + declared);
      if (extra.length > 0) onData(extra);
      if (socket.destroyed || socket.readableEnded) return end();
      socket.once('end', end);
      socket.once('close', end);
    },
  };
}
