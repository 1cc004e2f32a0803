/**
 * Reading a response head whose Content-Length was said more than once. Proxies that copy the
 * upstream's headers and then add their own send `Content-Length: 120` twice, or fold the two
 * into `Content-Length: 120, 120`; Node's HTTP parser refuses both, even read leniently, and the
 * whole reply would be lost as "not readable HTTP". HTTP lets a recipient replace identical values
 * with one, which is done here before the parser sees the head. Values that disagree say nothing
 * certain about where the body ends: the smallest is kept, and the transport reads on past it
 * while the body is not yet a whole reply (overrun.ts), as for a length that counted characters,
 * and takes the body as ended once nothing more arrives for a moment (transport.ts), since a
 * server may hold the connection open after a body shorter than every length it gave.
 * Beside Transfer-Encoding, which frames the body itself, the lengths are dropped.
 */
import type { Socket } from 'node:net';
import { bodyStart } from './overrun.js';

/** Bytes of response head looked at, at most; a longer head is passed on as it is. */
const MAX_HEAD_BYTES = 256 * 1024;

const CONTENT_LENGTH = /^content-length[ \t]*:(.*?)(\r?\n)?$/i;
const TRANSFER_ENCODING = /^transfer-encoding[ \t]*:/im;

/** The head's lines, which of them are Content-Length fields, and every value they give. */
function lengthFields(head: string): { lines: string[]; found: number[]; values: string[] } {
  const lines = head.split(/(?<=\n)/);
  const found: number[] = [];
  const values: string[] = [];
  lines.forEach((line, i) => {
    const m = CONTENT_LENGTH.exec(line);
    if (!m) return;
    found.push(i);
    values.push(...m[1].split(',').map((v) => v.trim()));
  });
  return { lines, found, values };
}

/**
 * True when `head` gives Content-Length values that disagree, and no Transfer-Encoding frames
 * the body instead: then nothing in the head says where the body ends.
 */
export function lengthsDisagree(head: string): boolean {
  const { values } = lengthFields(head);
  return !TRANSFER_ENCODING.test(head) && new Set(values.map((v) => v.replace(/^0+(?=\d)/, ''))).size > 1;
}

/**
 * `head` (the response head, or heads, up to the blank line, as latin1 text) with its
 * Content-Length values collapsed into one field: the value when all are the same, the smallest
 * when they differ, none beside Transfer-Encoding. Returned unchanged when there is at most one
 * value, or a value that is not a number (the parser then says what is wrong).
 */
export function collapseContentLength(head: string): string {
  const { lines, found, values } = lengthFields(head);
  if (values.length <= 1 || values.some((v) => !/^\d+$/.test(v))) return head;
  const chunked = TRANSFER_ENCODING.test(head);
  const length = values.map(Number).reduce((a, b) => Math.min(a, b));
  const first = CONTENT_LENGTH.exec(lines[found[0]]);
  const eol = first?.[2] ?? '\r\n';
  return lines
    .map((line, i) => {
      if (!found.includes(i)) return line;
      return i === found[0] && !chunked ? `Content-Length: ${length}${eol}` : '';
    })
    .join('');
}

/**
 * Puts itself between `socket` and the HTTP parser feeding on it, until the response head is
 * complete: the head goes to the parser with its Content-Length collapsed, then the parser's own
 * listeners are put back, so everything after the head reaches it as before. `onDisagree` is
 * called first when the head's lengths disagree (lengthsDisagree). Call on the request's 'socket'
 * event, before any byte arrived.
 */
export function collapseHeadLengths(socket: Socket, onDisagree?: () => void): void {
  const feeders = socket.listeners('data') as Array<(chunk: Buffer) => void>;
  if (feeders.length === 0) return;
  for (const feed of feeders) socket.removeListener('data', feed);
  let pending: Buffer = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    const start = bodyStart(pending);
    if (start === undefined && pending.length < MAX_HEAD_BYTES) return;
    const head = start === undefined ? undefined : pending.toString('latin1', 0, start);
    if (head !== undefined && lengthsDisagree(head)) onDisagree?.();
    const out =
      head === undefined
        ? pending
        : Buffer.concat([Buffer.from(collapseContentLength(head), 'latin1'), pending.subarray(start)]);
    socket.removeListener('data', onData);
    for (const feed of feeders) socket.on('data', feed);
    for (const feed of feeders) feed.call(socket, out);
  };
  socket.on('data', onData);
}
