/**
 * Child processes for the benchmarks: a free loopback port, spawning a server with its output
 * in a log file (no pipe for the parent to drain), waiting for it to answer, reading its memory
 * from /proc, and stopping it. Every child started here is tracked so the runner can stop the
 * ones still alive (by pid) on error or Ctrl-C.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';

const live = new Set<ChildProcess>();

/** A TCP port that was free on 127.0.0.1 a moment ago. */
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

/** A started child process. */
export interface Child {
  proc: ChildProcess;
  pid: number;
  /** performance.now() just before spawn(). */
  spawnedAt: number;
  logFile: string;
  /** Last bytes of its log, for error messages. */
  logTail(bytes?: number): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Spawns `process.execPath args` with `env` (only these variables plus PATH), output to `logFile`. */
export function spawnNode(
  args: string[],
  opts: { env: Record<string, string>; cwd?: string; logFile: string },
): Child {
  const out = fs.openSync(opts.logFile, 'a');
  const spawnedAt = performance.now();
  const proc = spawn(process.execPath, args, {
    cwd: opts.cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...opts.env },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  if (proc.pid === undefined) throw new Error(`could not spawn node ${args.join(' ')}`);
  live.add(proc);
  proc.once('exit', () => live.delete(proc));
  const logTail = (bytes = 2000) => {
    try {
      const text = fs.readFileSync(opts.logFile, 'utf8');
      return text.slice(-bytes);
    } catch {
      return '';
    }
  };
  return {
    proc,
    pid: proc.pid,
    spawnedAt,
    logFile: opts.logFile,
    logTail,
    stop: (graceMs = 15_000) => stopChild(proc, graceMs),
  };
}

function stopChild(proc: ChildProcess, graceMs: number): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
    proc.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    proc.kill('SIGTERM');
  });
}

/** Kills (SIGKILL, by pid) every child still running: for the runner's error and Ctrl-C paths. */
export function killAllChildren(): void {
  for (const p of live) {
    try {
      p.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
}

function getOnce(url: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    // a fresh connection per attempt (agent: false): the server may not be listening yet
    const req = http.get(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

/**
 * Polls `url` (every `intervalMs`) until it answers 200; returns performance.now() at that answer.
 * Throws when the child exits first or after `timeoutMs`.
 */
export async function waitForOk(
  url: string,
  child: Child,
  opts: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<number> {
  const deadline = performance.now() + (opts.timeoutMs ?? 60_000);
  const interval = opts.intervalMs ?? 2;
  for (;;) {
    if (child.proc.exitCode !== null || child.proc.signalCode !== null) {
      throw new Error(
        `child exited (${child.proc.exitCode ?? child.proc.signalCode}) before ${url} answered:\n${child.logTail()}`,
      );
    }
    try {
      const status = await getOnce(url, 2_000);
      if (status === 200) return performance.now();
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline)
      throw new Error(`${url} did not answer 200 in time:\n${child.logTail()}`);
    await new Promise((r) => setTimeout(r, interval));
  }
}

/**
 * A field of /proc/<pid>/status (VmRSS, VmHWM, ...) in MB (10^6 bytes, the unit of our speed
 * targets; /proc's "kB" are KiB).
 */
export function procStatusMB(pid: number, field: 'VmRSS' | 'VmHWM' | 'VmSize'): number {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(text);
  if (!m) throw new Error(`no ${field} in /proc/${pid}/status`);
  return (Number(m[1]) * 1024) / 1e6;
}

/**
 * CPU time (user + system, all threads) process `pid` has used so far, ms, from /proc/<pid>/stat
 * (kernel clock ticks of 10 ms: measure spans of many requests).
 */
export function procCpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the fields after the command name, which is in parentheses and may hold spaces
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}
