/**
 * The transport of one chat-completions exchange: a POST over node:http or node:https (the URL's
 * scheme picks which; host, port, path and query come from the URL as given), with
 * `Authorization: Bearer <key>` when a key is set (or the key in `api-key` and
 * `Ocp-Apim-Subscription-Key` headers for Azure), and a `User-Agent` naming Klebb and its version.
 * A user and password written into the URL go as `Authorization: Basic` instead of the bearer key
 * (a reverse proxy asking for Basic authentication in front of the model). It knows bytes and connection ends, nothing of
 * what the bytes mean. A body the server compressed although we never asked it to (proxies that
 * gzip every reply) is decompressed here, so everything above sees the bytes the gateway meant.
 * Sloppy but readable HTTP framing is read leniently (see `insecureHTTPParser` below), and a
 * Content-Length said more than once is collapsed into one before the parser sees it
 * (response-head.ts). A proxy named in the environment (env-proxy.ts) is used: an http request goes
 * to it whole, an https one through a CONNECT tunnel.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP, type Socket } from 'node:net';
import { PassThrough, type Readable, type Transform, type Writable } from 'node:stream';
import tls from 'node:tls';
import zlib from 'node:zlib';
import { lookupTable } from '../../common/lookup-table.js';
import { appVersion } from '../../home/app-version.js';
import { GATEWAY_MAX_BODY_BYTES, GATEWAY_UNFRAMED_QUIET_MS } from '../../limits.js';
import { classifyNetworkError } from './classify.js';
import { type ProxyRoute, proxyFor } from './env-proxy.js';
import { GatewayError } from './gateway-error.js';
import { type RawTap, tapSocket } from './overrun.js';
import { collapseHeadLengths } from './response-head.js';

/** The client Klebb says it is on every request to the gateway. */
const USER_AGENT = `Klebb/${appVersion()}`;

/** Parses the endpoint URL. Throws GatewayError 'failed' / 'bad_url' unless it is http(s). */
export function parseEndpoint(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new GatewayError('failed', 'the chat endpoint URL is not a valid URL', { reason: 'bad_url' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new GatewayError(
      'failed',
      `the chat endpoint URL must be http:// or https://, got ${url.protocol}`,
      {
        reason: 'bad_url',
      },
    );
  }
  return url;
}

/** How to send: the key, whether to verify TLS, and whether a stream is asked for (Accept header). */
export interface TransportOptions {
  apiKey?: string;
  /** Send the key in `api-key` and `Ocp-Apim-Subscription-Key` headers instead of as a bearer token. */
  keyInHeader?: boolean;
  tlsRejectUnauthorized?: boolean;
  streaming: boolean;
}

/** What the exchange reports, in order: the response head, body bytes, then one end or error. */
export interface ExchangeHandlers {
  onResponse(status: number, headers: http.IncomingHttpHeaders): void;
  onData(chunk: Buffer): void;
  /** 'eof': the body ended cleanly; 'reset': the connection died before the body was complete. */
  onEnd(how: 'eof' | 'reset'): void;
  /**
   * True when the body so far is a whole reply. Asked when a body framed by Content-Length has
   * its declared bytes: when false, the bytes the server sent past the declared length are read
   * too (a length that counted characters, not bytes). Absent: the declared length is trusted.
   */
  bodyWhole?(): boolean;
  /** No response at all (refused, reset, TLS, DNS), as a classified GatewayError. */
  onError(err: GatewayError): void;
}

/** A running exchange; `destroy()` drops the connection (abort, timeout, reply complete). */
export interface Exchange {
  destroy(): void;
}

/** Sends `payload` (JSON bytes) to `url` and reports through `handlers`. Never throws. */
export function openExchange(
  url: URL,
  options: TransportOptions,
  payload: Buffer,
  handlers: ExchangeHandlers,
): Exchange {
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/json',
    'Content-Length': payload.length,
    Accept: options.streaming ? 'text/event-stream, application/json' : 'application/json',
    Connection: 'close',
    // without it every content coding is acceptable (RFC 9110), and edges in front of relays then
    // pick zstd, which this runtime cannot decompress; a proxy that compresses regardless is
    // still read (decodedBody)
    'Accept-Encoding': 'identity',
    // Node names no client of its own, and edges in front of relays (Cloudflare's browser
    // integrity check, bot rules) refuse a request that names none: 403 "error code: 1010"
    'User-Agent': USER_AGENT,
  };
  const basic = basicCredentials(url);
  if (options.apiKey && options.apiKey.trim() !== '') {
    if (options.keyInHeader) {
      headers['api-key'] = options.apiKey;
      headers['Ocp-Apim-Subscription-Key'] = options.apiKey;
    } else if (!basic) headers.Authorization = `Bearer ${options.apiKey}`;
  }
  if (basic) headers.Authorization = `Basic ${basic}`;
  const isHttps = url.protocol === 'https:';
  const requestOptions: https.RequestOptions = {
    method: 'POST',
    hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? (isHttps ? 443 : 80) : Number(url.port),
    path: `${url.pathname}${url.search}`,
    headers,
    agent: false,
    // servers and proxies in front of models send framing Node's strict parser refuses although
    // the reply is plain to read: Content-Length beside Transfer-Encoding: chunked (proxies that
    // re-chunk a stream and keep the length), bare LF line ends, spaces after a chunk size. The
    // strict rules guard shared connections against request smuggling; this one carries one
    // request and one response and is then closed (agent: false, Connection: close), so there is
    // nothing to desynchronise, and refusing would only fail every reply from such a server
    insecureHTTPParser: true,
  };
  const verify = options.tlsRejectUnauthorized ?? false;
  if (isHttps) requestOptions.rejectUnauthorized = verify;
  const route = proxyFor(url);
  if (!route) return sendRequest(url, isHttps, requestOptions, payload, handlers);
  const proxy = route.proxy;
  if (!proxy) {
    handlers.onError(
      new GatewayError(
        'failed',
        `${route.variable} (${route.written}) is not an http:// or https:// proxy, the only kinds Klebb can use`,
        { reason: 'bad_proxy' },
      ),
    );
    return { destroy: () => {} };
  }
  const proxyAuth = basicCredentials(proxy);
  if (!isHttps) {
    // a plain http request goes to the proxy whole, its target written in full (absolute-form)
    const viaProxy: https.RequestOptions = {
      ...requestOptions,
      hostname: bareHostname(proxy),
      port: portOf(proxy),
      path: `${url.protocol}//${url.host}${url.pathname}${url.search}`,
      headers: {
        ...headers,
        Host: url.host,
        ...(proxyAuth ? { 'Proxy-Authorization': `Basic ${proxyAuth}` } : {}),
      },
    };
    if (proxy.protocol === 'https:') viaProxy.rejectUnauthorized = verify;
    return sendRequest(proxy, proxy.protocol === 'https:', viaProxy, payload, handlers, route);
  }
  return tunnelThrough(route, proxy, proxyAuth, url, verify, requestOptions, payload, handlers);
}

/** A host without IPv6 brackets, as node:http takes it. */
function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** The port `url` connects to. */
function portOf(url: URL): number {
  return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
}

/**
 * An https request through a proxy: a CONNECT tunnel to the endpoint's host and port, then TLS
 * with the endpoint itself inside it (the proxy sees neither the key nor the conversation).
 */
function tunnelThrough(
  route: ProxyRoute,
  proxy: URL,
  proxyAuth: string | undefined,
  url: URL,
  verify: boolean,
  requestOptions: https.RequestOptions,
  payload: Buffer,
  handlers: ExchangeHandlers,
): Exchange {
  const host = bareHostname(url);
  const authority = `${url.hostname}:${portOf(url)}`;
  const connectOptions: https.RequestOptions = {
    method: 'CONNECT',
    hostname: bareHostname(proxy),
    port: portOf(proxy),
    path: authority,
    headers: {
      Host: authority,
      'User-Agent': USER_AGENT,
      ...(proxyAuth ? { 'Proxy-Authorization': `Basic ${proxyAuth}` } : {}),
    },
    agent: false,
  };
  if (proxy.protocol === 'https:') connectOptions.rejectUnauthorized = verify;
  let inner: Exchange | undefined;
  let tunnel: Socket | undefined;
  let destroyed = false;
  const connect = (proxy.protocol === 'https:' ? https : http).request(connectOptions);
  connect.on('connect', (res: http.IncomingMessage, socket: Socket, head: Buffer) => {
    const status = res.statusCode ?? 0;
    if (destroyed || status < 200 || status >= 300) {
      socket.destroy();
      if (!destroyed) handlers.onError(proxyRefusal(route, proxy, status));
      return;
    }
    tunnel = socket;
    if (head.length > 0) socket.unshift(head);
    // no agent: node:http then asks createConnection for the socket, the TLS inside the tunnel
    const tunnelled: https.RequestOptions = {
      ...requestOptions,
      agent: undefined,
      createConnection: () =>
        tls.connect({ socket, servername: isIP(host) ? undefined : host, rejectUnauthorized: verify }),
    };
    inner = sendRequest(url, true, tunnelled, payload, handlers);
  });
  connect.on('error', (err) => {
    if (!destroyed && !inner) handlers.onError(proxyUnreachable(route, proxy, err));
  });
  connect.end();
  return {
    destroy: () => {
      destroyed = true;
      connect.destroy();
      inner?.destroy();
      tunnel?.destroy();
    },
  };
}

/** The proxy's origin without credentials, to name it. */
function proxyName(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}

/** The proxy could not be reached (refused, unknown host, reset) as a GatewayError naming it. */
function proxyUnreachable(route: ProxyRoute, proxy: URL, err: unknown): GatewayError {
  const e = err as { code?: string; message?: string };
  return new GatewayError(
    'unavailable',
    `the proxy ${proxyName(proxy)} (${route.variable}) could not be reached: ${e?.message ?? String(err)}`,
    {
      reason: 'proxy_unreachable',
      retryable: e?.code !== 'ENOTFOUND',
      cause: err,
      endpoint: proxyName(proxy),
    },
  );
}

/**
 * The proxy answered the CONNECT with something other than 2xx: 407 wants credentials (not asked
 * again), 502-504 could not reach the endpoint for now (asked again), anything else refuses it.
 */
function proxyRefusal(route: ProxyRoute, proxy: URL, status: number): GatewayError {
  const what =
    status === 407
      ? 'asks for credentials it was not given or refused them'
      : `answered ${status} to the request to open a connection to the endpoint`;
  return new GatewayError('unavailable', `the proxy ${proxyName(proxy)} (${route.variable}) ${what}`, {
    reason: status === 407 ? 'proxy_auth' : 'proxy_refused',
    upstreamStatus: status,
    retryable: status === 502 || status === 503 || status === 504,
    endpoint: proxyName(proxy),
  });
}

/**
 * Sends the request `requestOptions` describe (to `url`, or to a proxy) and reports through
 * `handlers`. `route`, when the request goes whole to a proxy, names the proxy in a failure to
 * reach it.
 */
function sendRequest(
  url: URL,
  isHttps: boolean,
  requestOptions: https.RequestOptions,
  payload: Buffer,
  handlers: ExchangeHandlers,
  route?: ProxyRoute,
): Exchange {
  const req = (isHttps ? https : http).request(requestOptions);
  let responded = false;
  let tap: RawTap | undefined;
  let unframed = false;
  let quiet: NodeJS.Timeout | undefined;
  req.on('socket', (socket) => {
    // a Content-Length said twice (a proxy adding its own) is one length, not an unreadable reply
    collapseHeadLengths(socket, () => {
      unframed = true;
    });
    tap = tapSocket(socket, GATEWAY_MAX_BODY_BYTES);
  });
  req.on('error', (err) => {
    // bytes the parser cannot place after a response began (junk after a body whose
    // Content-Length was already met, arriving in the same read): the response's own end or
    // close, which follows, decides whether the reply arrived whole
    if (responded && isHttpParseError(err)) return;
    handlers.onError(
      route && !responded ? proxyUnreachable(route, url, err) : classifyNetworkError(err, url),
    );
  });
  req.on('response', (res) => {
    responded = true;
    const body = decodedBody(res, handlers);
    if (!body) return;
    const declared = body === res ? declaredLength(res.headers) : undefined;
    if (declared === undefined) tap?.stop();
    let ended = false;
    const end = (how: 'eof' | 'reset') => {
      if (ended) return;
      ended = true;
      clearTimeout(quiet);
      handlers.onEnd(how);
    };
    // lengths that disagree tell nothing of where the body ends, and a server that holds the
    // connection open after it would keep the reply waiting for the call's timeout: the body
    // ends once nothing more arrives for a moment (whole, or said to be cut off)
    if (unframed) quiet = setTimeout(() => end('eof'), GATEWAY_UNFRAMED_QUIET_MS);
    const deliver = (chunk: Buffer) => {
      quiet?.refresh();
      handlers.onData(chunk);
    };
    // a body compressed without a Content-Encoding saying so (relays behind CDNs that strip the
    // label) is told by its first bytes, which no JSON or event stream starts with
    let sniffed = body !== res;
    let inflate: Transform | undefined;
    const onData = (chunk: Buffer) => {
      if (!sniffed) {
        sniffed = true;
        inflate = unlabelledDecompressor(chunk, res.statusCode, handlers);
        if (inflate) {
          tap?.stop();
          inflate.on('data', deliver);
          inflate.on('end', () => end('eof'));
        }
      }
      if (inflate) {
        quiet?.refresh();
        inflate.write(chunk);
      } else deliver(chunk);
    };
    handlers.onResponse(res.statusCode ?? 0, res.headers);
    body.on('data', onData);
    body.on('end', () => {
      if (inflate) {
        inflate.end(); // the body ends once its last bytes are decompressed
        return;
      }
      if (tap && declared !== undefined && handlers.bodyWhole && !handlers.bodyWhole()) {
        tap.readOn(declared, onData, () => end('eof'));
        return;
      }
      tap?.stop();
      end('eof');
    });
    res.on('error', () => end('reset'));
    res.on('close', () => {
      if (!res.complete) end('reset');
    });
  });
  req.end(payload);
  return {
    destroy: () => {
      clearTimeout(quiet);
      req.destroy();
    },
  };
}

/** A URL component with its percent-escapes undone; as written when they do not decode. */
function unescaped(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * The user and password written into the endpoint URL (`https://user:password@host/...`, how a
 * model behind a reverse proxy asking for Basic authentication is reached), as the base64 of
 * `user:password` for an `Authorization: Basic` header; undefined when the URL has none. Node's
 * request ignores a URL's credentials, so they must be sent by hand.
 */
function basicCredentials(url: URL): string | undefined {
  if (url.username === '' && url.password === '') return undefined;
  return Buffer.from(`${unescaped(url.username)}:${unescaped(url.password)}`, 'utf8').toString('base64');
}

/** The Content-Length of a body framed by it alone (no Transfer-Encoding); undefined otherwise. */
function declaredLength(headers: http.IncomingHttpHeaders): number | undefined {
  if (headers['transfer-encoding'] !== undefined) return undefined;
  const raw = headers['content-length'];
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return undefined;
  return Number(raw.trim());
}

/** True for an error of Node's HTTP parser (its codes start with HPE_). */
export function isHttpParseError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('HPE_');
}

/**
 * The response body as the gateway meant it: `res` itself, or `res` through a decompressor when
 * `Content-Encoding` names gzip, deflate or br (HTTP lets a server send only what the client
 * accepts, but proxies in front of gateways compress every reply). A body that does not
 * decompress is a 'parse' error; an encoding we cannot read is reported before anything else,
 * naming it, and undefined is returned.
 */
function decodedBody(res: http.IncomingMessage, handlers: ExchangeHandlers): Readable | undefined {
  const encodings = String(res.headers['content-encoding'] ?? '')
    .toLowerCase()
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '' && e !== 'identity');
  if (encodings.length === 0) return res;
  const unknown = encodings.find((e) => DECOMPRESSORS[e] === undefined);
  if (unknown !== undefined) {
    res.resume();
    handlers.onError(
      new GatewayError('parse', `the gateway compressed its reply as "${unknown}", which Klebb cannot read`, {
        reason: 'content_encoding',
        upstreamStatus: res.statusCode,
      }),
    );
    return undefined;
  }
  // a proxy that decompressed the reply but kept its Content-Encoding label sends plain text
  // under it: the first bytes tell, since compressed data never starts as readable JSON or SSE
  const out = new PassThrough();
  res.once('data', (first: Buffer) => {
    if (looksPlain(first)) {
      out.write(first);
      res.pipe(out);
      return;
    }
    const chain = decompressorChain(res, encodings, handlers);
    chain.head.write(first);
    res.pipe(chain.head);
    chain.tail.pipe(out);
  });
  res.once('end', () => {
    if (res.listenerCount('data') === 0) out.end();
  });
  return out;
}

/** True when `chunk` starts as plain JSON or an event stream: printable text opening with one of `{ [ :` or a letter. */
function looksPlain(chunk: Buffer): boolean {
  const head = chunk.subarray(0, 16);
  for (const byte of head)
    if ((byte < 0x20 && byte !== 9 && byte !== 10 && byte !== 13) || byte === 0x7f) return false;
  const text = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return text === '' ? head.length > 0 : /^[{[:]|^(?:data|event|id|retry)\s*:/.test(text);
}

/** Decompressors undoing `encodings` (listed in the order applied, so undone last first). */
function decompressorChain(
  res: http.IncomingMessage,
  encodings: string[],
  handlers: ExchangeHandlers,
): { head: Writable; tail: Readable } {
  let head: Writable | undefined;
  let body: Readable | undefined;
  for (const encoding of [...encodings].reverse()) {
    const make = DECOMPRESSORS[encoding];
    // every coding was checked against the table before the stages are built
    if (!make) throw new Error(`no decompressor for ${encoding}`);
    const stage = make();
    stage.on('error', (err) =>
      handlers.onError(
        new GatewayError('parse', `the gateway reply did not decompress as ${encoding}: ${err.message}`, {
          reason: 'content_encoding',
          upstreamStatus: res.statusCode,
          cause: err,
        }),
      ),
    );
    if (body) body.pipe(stage);
    else head = stage;
    body = stage;
  }
  return { head: head as Writable, tail: body as Readable };
}

/** zstd's decompressor where the runtime has one (Node 22.15 and later), else undefined. */
const zstdDecompressor = (zlib as { createZstdDecompress?: () => Transform }).createZstdDecompress;

/** Decompressors by Content-Encoding token; flushes are read as they come, so a stream stays live. */
const DECOMPRESSORS = lookupTable<() => Transform>({
  gzip: () => zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH }),
  'x-gzip': () => zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH }),
  deflate: () => zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH }),
  br: () => zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }),
  ...(zstdDecompressor ? { zstd: () => zstdDecompressor.call(zlib) } : {}),
});

/** gzip's magic bytes and compression method (deflate), and zstd's frame magic. */
const GZIP_MAGIC = [0x1f, 0x8b, 0x08];
const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

function startsWith(chunk: Buffer, magic: number[]): boolean {
  return chunk.length >= magic.length && magic.every((byte, i) => chunk[i] === byte);
}

/**
 * A decompressor for a body whose first bytes are gzip's or zstd's although no Content-Encoding
 * says so, or undefined when they are neither (or zstd this runtime cannot read: that is reported
 * as a 'parse' error naming it, and the bytes are then read as they are, for nothing).
 */
function unlabelledDecompressor(
  first: Buffer,
  status: number | undefined,
  handlers: ExchangeHandlers,
): Transform | undefined {
  const coding = startsWith(first, GZIP_MAGIC) ? 'gzip' : startsWith(first, ZSTD_MAGIC) ? 'zstd' : undefined;
  if (!coding) return undefined;
  const make = DECOMPRESSORS[coding];
  if (!make) {
    handlers.onError(
      new GatewayError(
        'parse',
        `the gateway compressed its reply as "${coding}" without saying so, and Klebb cannot read ${coding}`,
        { reason: 'content_encoding', upstreamStatus: status },
      ),
    );
    return undefined;
  }
  const stage = make();
  stage.on('error', (err) =>
    handlers.onError(
      new GatewayError('parse', `the gateway reply did not decompress as ${coding}: ${err.message}`, {
        reason: 'content_encoding',
        upstreamStatus: status,
        cause: err,
      }),
    ),
  );
  return stage;
}
