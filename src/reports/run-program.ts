/**
 * Runs one of the external readers (pdfinfo, pdftotext, pdftoppm, tesseract) on a file nobody
 * vouches for, boxed in: `prlimit` caps its address space, CPU seconds and the size of any file
 * it writes; a wall-clock timeout kills it (SIGKILL, it gets no say); its output is capped; it
 * runs with no shell and a minimal environment. The program runs asynchronously, so the server
 * keeps answering while it works.
 */
import { execFile } from 'node:child_process';
import { clipGraphemes } from '../common/graphemes.js';
import {
  REPORT_PROGRAM_FILE_BYTES,
  REPORT_PROGRAM_MEMORY_BYTES,
  REPORT_PROGRAM_TIMEOUT_MS,
} from '../limits.js';

/** Limits of one run; each has a default from src/limits.ts. */
export interface ProgramLimits {
  timeoutMs?: number;
  memoryBytes?: number;
  fileBytes?: number;
  /** Largest stdout kept, bytes (more is a failure, not a silent cut). */
  maxOutputBytes?: number;
  /** Extra environment variables. */
  env?: Record<string, string>;
  signal?: AbortSignal;
}

/** A run that did not succeed; `reason` is a sentence fit for the report's "rejected" note. */
export class ProgramError extends Error {
  constructor(
    readonly program: string,
    readonly reason: string,
  ) {
    super(`${program}: ${reason}`);
    this.name = 'ProgramError';
  }
}

/**
 * Runs `program args` and resolves its stdout.
 * @throws ProgramError when it exits non-zero, is killed (time, memory), or prints too much.
 */
export function runProgram(program: string, args: string[], limits: ProgramLimits = {}): Promise<Buffer> {
  const timeoutMs = limits.timeoutMs ?? REPORT_PROGRAM_TIMEOUT_MS;
  const boxed = [
    `--as=${limits.memoryBytes ?? REPORT_PROGRAM_MEMORY_BYTES}`,
    `--cpu=${Math.ceil(timeoutMs / 1000) + 1}`,
    `--fsize=${limits.fileBytes ?? REPORT_PROGRAM_FILE_BYTES}`,
    '--core=0',
    '--',
    program,
    ...args,
  ];
  return new Promise((resolve, reject) => {
    execFile(
      'prlimit',
      boxed,
      {
        encoding: 'buffer',
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: limits.maxOutputBytes ?? 64 * 1024 * 1024,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8', ...limits.env },
        signal: limits.signal,
        windowsHide: true,
      },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const e = err as NodeJS.ErrnoException & { killed?: boolean; signal?: string; code?: unknown };
        let reason: string;
        if (e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') reason = 'it produced more output than is kept';
        else if (e.name === 'AbortError') reason = 'it was stopped';
        else if (e.killed || e.signal === 'SIGKILL' || e.signal === 'SIGXCPU')
          reason = `it took longer than ${Math.round(timeoutMs / 1000)} s or ran out of its memory`;
        else if (e.code === 'ENOENT') reason = 'prlimit (util-linux) is not installed';
        else {
          const last = stderr.toString('utf8').trim().split('\n').filter(Boolean).pop() ?? '';
          reason = `it failed (exit ${String(e.code ?? e.signal)})${last ? `: ${clipGraphemes(last, 200)}` : ''}`;
          if (/execvp|No such file/.test(last)) reason = `${program} is not installed`;
        }
        reject(new ProgramError(program, reason));
      },
    );
  });
}
