/**
 * The real server as a child process (`node dist/server/main.js`, what `npm start` runs), for tests that need a process
 * boundary: SIGKILL mid-write, SIGTERM and the WAL, exit codes. `npm test` builds dist first
 * (the `pretest` script); a missing build is a clear failure, not a skip.
 *
 * Every child spawned here is tracked; `killAllChildren()` (call it in afterAll) SIGKILLs any
 * that are still running and waits for them, and a process `exit` hook does the same as a last
 * resort so a failed test never leaves a server behind.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { repoRoot } from './sandbox-home.js';
import { type ApiInit, type ApiResponse, request } from './server.js';

/** The built entry point the child runs: the production bundle `npm start` runs. */
export const distMain = path.join(repoRoot, 'dist/server/main.js');

/** The same server compiled file by file (tsc's dist/src), for a test that tells modules apart. */
export const distMainUnbundled = path.join(repoRoot, 'dist/src/main.js');

/** How a child ended. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A running (or ended) server child. */
export interface ChildServer {
  url: string;
  port: number;
  home: string;
  token: string;
  pid: number;
  proc: ChildProcess;
  /** Resolves once the child has exited (never rejects). */
  exited: Promise<ChildExit>;
  /** True once the child has exited. */
  hasExited(): boolean;
  /** Everything the child wrote to stdout and stderr so far (for failure messages). */
  output(): string;
  /** fetch against the child with its bearer token unless `init.token` says otherwise. */
  api(p: string, init?: ApiInit): Promise<ApiResponse>;
  /** Sends a signal (no-op if it already exited). */
  signal(sig: NodeJS.Signals): void;
  /** SIGKILL and wait for the exit. */
  kill(): Promise<ChildExit>;
  /** SIGTERM and wait for the exit (SIGKILL after `graceMs` as a safety net, reported in the result). */
  stop(graceMs?: number): Promise<ChildExit & { forced: boolean }>;
}

const live = new Set<ChildProcess>();

process.on('exit', () => {
  for (const p of live) {
    try {
      p.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** Throws a clear error when the build is missing (run `npx tsc -p tsconfig.json` / `npm run build`). */
export function assertDistBuilt(): void {
  if (!fs.existsSync(distMain)) {
    throw new Error(
      `${distMain} is missing: build first with \`npm run build\` (npm test runs it as pretest)`,
    );
  }
}

/** A port that was free a moment ago: listen on 0, read the port, close. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Spawns the server on `home` and waits until `/healthz` answers 200.
 * @param opts.startTimeoutMs how long to wait for health before giving up (a hang guard, not an assertion on speed).
 * @throws with the child's output when it exits before becoming healthy or never answers.
 */
export async function spawnServer(opts: {
  home: string;
  token?: string;
  env?: Record<string, string>;
  startTimeoutMs?: number;
  /** The entry point to run; distMain unless a test needs another. */
  main?: string;
  /** The uid (and gid) to run the server as, through setpriv; the tests' own user unless set. */
  asUser?: number;
}): Promise<ChildServer> {
  assertDistBuilt();
  // the free-port probe can race another process; retry a few times on EADDRINUSE
  let lastErr: unknown;
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      return await spawnOnce(opts, await freePort());
    } catch (err) {
      lastErr = err;
      if (!String((err as Error).message).includes('EADDRINUSE')) throw err;
    }
  }
  throw lastErr;
}

async function spawnOnce(
  opts: {
    home: string;
    token?: string;
    env?: Record<string, string>;
    startTimeoutMs?: number;
    main?: string;
    asUser?: number;
  },
  port: number,
): Promise<ChildServer> {
  const token = opts.token ?? 'test-agent-token';
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    HEALTH_HOME: opts.home,
    PORT: String(port),
    HOST: '127.0.0.1',
    AGENT_API_TOKEN: token,
    KLEBB_LOG_LEVEL: 'silent',
    ...opts.env,
  };
  const node = [process.execPath, opts.main ?? distMain];
  const cmd =
    opts.asUser === undefined
      ? node
      : ['setpriv', `--reuid=${opts.asUser}`, `--regid=${opts.asUser}`, '--clear-groups', ...node];
  const proc = spawn(cmd[0] as string, cmd.slice(1), {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(proc);
  let out = '';
  const keep = (chunk: Buffer) => {
    out += chunk.toString('utf8');
    if (out.length > 64_000) out = out.slice(-64_000);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  let ended: ChildExit | undefined;
  const exited = new Promise<ChildExit>((resolve) => {
    proc.once('exit', (code, signal) => {
      ended = { code, signal };
      live.delete(proc);
      resolve(ended);
    });
    proc.once('error', (err) => {
      out += `\nspawn error: ${err.message}`;
      ended = { code: null, signal: null };
      live.delete(proc);
      resolve(ended);
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const signal = (sig: NodeJS.Signals) => {
    if (!ended && proc.pid !== undefined) proc.kill(sig);
  };
  const kill = async () => {
    signal('SIGKILL');
    return exited;
  };
  const child: ChildServer = {
    url,
    port,
    home: opts.home,
    token,
    pid: proc.pid ?? -1,
    proc,
    exited,
    hasExited: () => ended !== undefined,
    output: () => out,
    api: (p, init = {}) => request(url, p, { token, ...init }),
    signal,
    kill,
    async stop(graceMs = 15_000) {
      signal('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const forced = await Promise.race([
        exited.then(() => false),
        new Promise<boolean>((r) => {
          timer = setTimeout(() => r(true), graceMs);
        }),
      ]);
      clearTimeout(timer);
      if (forced) signal('SIGKILL');
      return { ...(await exited), forced };
    },
  };

  const deadline = Date.now() + (opts.startTimeoutMs ?? 20_000);
  for (;;) {
    if (ended) {
      throw new Error(
        `server exited before it was healthy (code ${ended.code}, signal ${ended.signal}):\n${out}`,
      );
    }
    try {
      const res = await fetch(`${url}/healthz`);
      await res.text();
      if (res.status === 200) return child;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await kill();
      throw new Error(
        `server did not answer /healthz on ${url} within ${opts.startTimeoutMs ?? 20_000} ms:\n${out}`,
      );
    }
    await sleep(25);
  }
}

/** SIGKILLs every child still running and waits until each has exited. */
export async function killAllChildren(): Promise<void> {
  const waits = [...live].map(
    (p) =>
      new Promise<void>((resolve) => {
        if (p.exitCode !== null || p.signalCode !== null) return resolve();
        p.once('exit', () => resolve());
        try {
          p.kill('SIGKILL');
        } catch {
          resolve();
        }
      }),
  );
  await Promise.all(waits);
  live.clear();
}

/** A writeable card whose rows are arbitrary objects (for the append tests). */
export function writeableCard(id: string): Record<string, unknown> {
  return {
    $schema: 'klebb.datafile.v1',
    meta: {
      id,
      label: `Test ${id}`,
      view: { enabled: true, component: 'list-card' },
      writeable: {
        fromWebapp: true,
        inputs: [{ key: 'seq', label: 'Seq', type: 'number', required: true }],
      },
    },
    description: 'test card',
    data: [],
  };
}
