/**
 * The real server for API tests: a fresh sandbox HEALTH_HOME, the real instance (SQLite, file
 * watcher) and the real Fastify app listening on 127.0.0.1 at a random port.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { AuthDeps } from '../../src/auth/auth-service.js';
import { loadConfig } from '../../src/config.js';
import { type Instance, openInstance } from '../../src/instance.js';
import type { PushDeps } from '../../src/push/push-service.js';
import { sandboxHome } from './sandbox-home.js';

/** A running test server. `close()` stops it and removes its home (unless keepHome). */
export interface TestServer {
  url: string;
  home: string;
  dataDir: string;
  inst: Instance;
  app: FastifyInstance;
  /** fetch against the server: `api('/api/manifests', {method, json, token, headers})`. */
  api(path: string, init?: ApiInit): Promise<ApiResponse>;
  close(opts?: { keepHome?: boolean }): Promise<void>;
}

export interface ApiInit {
  method?: string;
  json?: unknown;
  body?: string | Buffer;
  headers?: Record<string, string>;
  token?: string;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/**
 * Starts the server. `env` is merged over a minimal environment (HEALTH_HOME, PORT=0, quiet logs).
 * `before(home)` runs after the home folder exists and before the instance opens (to drop files in).
 * `auth` gives the accounts service a clock or a spy around its constant-time checker.
 */
export async function startServer(
  opts: {
    env?: Record<string, string>;
    home?: string;
    before?: (home: string, dataDir: string) => void;
    watch?: boolean;
    auth?: AuthDeps;
    /** Web Push seams: an HTTPS agent trusting a stand-in, a clock, a short backoff, no timer. */
    push?: PushDeps;
  } = {},
): Promise<TestServer> {
  const box = opts.home ? { home: opts.home, dataDir: `${opts.home}/data`, remove() {} } : sandboxHome();
  opts.before?.(box.home, box.dataDir);
  const config = loadConfig({
    HEALTH_HOME: box.home,
    PORT: '0',
    HOST: '127.0.0.1',
    KLEBB_LOG_LEVEL: 'silent',
    ...opts.env,
  });
  const inst = await openInstance(config, { watch: opts.watch, auth: opts.auth, push: opts.push });
  const app = buildApp(inst);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    home: box.home,
    dataDir: box.dataDir,
    inst,
    app,
    api: (path, init = {}) => request(url, path, init),
    async close(o = {}) {
      await Promise.all([inst.stopTurns(), app.close()]);
      await inst.close();
      if (!o.keepHome) box.remove();
    },
  };
}

/** One HTTP request with JSON conveniences; the body is parsed when it is JSON. */
export async function request(base: string, path: string, init: ApiInit = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | Buffer | undefined = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers['content-type'] ??= 'application/json';
  }
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const res = await fetch(base + path, {
    method: init.method ?? (body !== undefined ? 'POST' : 'GET'),
    headers,
    body: body as BodyInit | undefined,
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}
