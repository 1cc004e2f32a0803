/**
 * A minimal HTTP/1.1 client on node:http for timing requests: one keep-alive socket per client
 * (sequential requests reuse it, as a script or agent talking to the server would), the body
 * read to the end before the clock stops. Lighter than fetch, so less client time in the figures.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

/** One completed request. `ms` is from just before sending to the last byte of the body. */
export interface HttpResult {
  status: number;
  body: string;
  ms: number;
}

export interface RequestOptions {
  method?: string;
  /** Sent as JSON (content-type application/json) when given. */
  json?: unknown;
  /** Raw body (already JSON text) when given; wins over `json`. */
  body?: string;
  token?: string;
  /** Give up after this long, ms (default 120 s: seeding a big card can take a while). */
  timeoutMs?: number;
}

/** A client bound to one base URL with its own keep-alive agent. */
export class HttpClient {
  private readonly agent: http.Agent;
  private readonly base: URL;

  constructor(baseUrl: string, opts: { keepAlive?: boolean } = {}) {
    this.base = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: opts.keepAlive ?? true, maxSockets: 1 });
  }

  request(path: string, opts: RequestOptions = {}): Promise<HttpResult> {
    const body = opts.body ?? (opts.json !== undefined ? JSON.stringify(opts.json) : undefined);
    const headers: Record<string, string | number> = {};
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    return new Promise((resolve, reject) => {
      const t0 = performance.now();
      const req = http.request(
        {
          host: this.base.hostname,
          port: this.base.port,
          path,
          method: opts.method ?? (body !== undefined ? 'POST' : 'GET'),
          headers,
          agent: this.agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const ms = performance.now() - t0;
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ms });
          });
          res.on('error', reject);
        },
      );
      req.setTimeout(opts.timeoutMs ?? 120_000, () => req.destroy(new Error(`timeout: ${path}`)));
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Throws unless the status is the expected one (a failed request is not a measurement). */
export function expectStatus(r: HttpResult, want: number, what: string): HttpResult {
  if (r.status !== want)
    throw new Error(`${what}: expected HTTP ${want}, got ${r.status}: ${r.body.slice(0, 500)}`);
  return r;
}
