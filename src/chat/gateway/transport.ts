/**
 * The transport of one chat-completions exchange: a POST over node:http or node:https (the URL's
 * scheme picks which; host, port, path and query come from the URL as given), with
 * `Authorization: Bearer <key>` when a key is set. It knows bytes and connection ends, nothing of
 * what the bytes mean.
 */
import http from 'node:http';
import https from 'node:https';
import { classifyNetworkError } from './classify.js';
import { GatewayError } from './gateway-error.js';

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
  tlsRejectUnauthorized?: boolean;
  streaming: boolean;
}

/** What the exchange reports, in order: the response head, body bytes, then one end or error. */
export interface ExchangeHandlers {
  onResponse(status: number, headers: http.IncomingHttpHeaders): void;
  onData(chunk: Buffer): void;
  /** 'eof': the body ended cleanly; 'reset': the connection died before the body was complete. */
  onEnd(how: 'eof' | 'reset'): void;
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
  };
  if (options.apiKey && options.apiKey.trim() !== '') headers.Authorization = `Bearer ${options.apiKey}`;
  const isHttps = url.protocol === 'https:';
  const requestOptions: https.RequestOptions = {
    method: 'POST',
    hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? (isHttps ? 443 : 80) : Number(url.port),
    path: `${url.pathname}${url.search}`,
    headers,
    agent: false,
  };
  if (isHttps) requestOptions.rejectUnauthorized = options.tlsRejectUnauthorized ?? false;

  const req = (isHttps ? https : http).request(requestOptions);
  req.on('error', (err) => handlers.onError(classifyNetworkError(err)));
  req.on('response', (res) => {
    handlers.onResponse(res.statusCode ?? 0, res.headers);
    res.on('data', (chunk: Buffer) => handlers.onData(chunk));
    res.on('end', () => handlers.onEnd('eof'));
    res.on('error', () => handlers.onEnd('reset'));
    res.on('close', () => {
      if (!res.complete) handlers.onEnd('reset');
    });
  });
  req.end(payload);
  return { destroy: () => req.destroy() };
}
