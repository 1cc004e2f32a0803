/**
 * The requests a stdio client has sent and not yet had answered, so that the process, when the
 * client closes its stdin right after its last request (`printf … | npm run mcp`, a script, a
 * client that sends then shuts down), answers them before it exits instead of closing the home
 * under a tool call that is still writing and leaving its answer unsent.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type Id = string | number;

/** What the tracker tells about a transport's open requests. */
export interface PendingRequests {
  /**
   * Resolves once every request the client sent is answered (at once when none is open), or
   * when the server asks the client something (an approval through elicitation): with stdin
   * closed no answer can come, so waiting would only hold the process until the question
   * expires; closing the transport then ends that call as unanswered, and nothing changes.
   */
  settled(): Promise<void>;
}

const idOf = (m: JSONRPCMessage): Id | undefined => {
  const id = (m as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
};
const isRequest = (m: JSONRPCMessage) => 'method' in m && idOf(m) !== undefined;
const isResponse = (m: JSONRPCMessage) => ('result' in m || 'error' in m) && idOf(m) !== undefined;

/**
 * Follows `transport` (call before `server.connect`): the client's requests as they arrive,
 * the server's answers as they are sent, a request the client cancelled (which gets no answer),
 * and the server's own requests to the client.
 */
export function trackPendingRequests(transport: Transport): PendingRequests {
  const open = new Set<Id>();
  let asking = 0;
  const waiters: (() => void)[] = [];
  const check = () => {
    if (open.size && !asking) return;
    for (const w of waiters.splice(0)) w();
  };

  let inner: Transport['onmessage'];
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => (inner ? seen : undefined),
    set: (fn: Transport['onmessage']) => {
      inner = fn;
    },
  });
  function seen(message: JSONRPCMessage, extra?: Parameters<NonNullable<Transport['onmessage']>>[1]) {
    if (isRequest(message)) open.add(idOf(message) as Id);
    else if (isResponse(message)) asking = Math.max(0, asking - 1);
    else if ('method' in message && message.method === 'notifications/cancelled') {
      const cancelled = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof cancelled === 'string' || typeof cancelled === 'number') open.delete(cancelled);
    }
    inner?.(message, extra);
    check();
  }

  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    if (isRequest(message)) asking++;
    await send(message, options);
    if (isResponse(message)) open.delete(idOf(message) as Id);
    check();
  };

  return {
    settled: () =>
      new Promise<void>((resolve) => {
        waiters.push(resolve);
        check();
      }),
  };
}
