/**
 * Memory of a process as Linux accounts it, from /proc/<pid>/smaps_rollup: RSS (every resident
 * page, shared ones included), PSS (shared pages divided among the processes that map them) and
 * private (pages only this process maps: what it would give back by exiting). In MB (10^6 bytes).
 */
import fs from 'node:fs';

export interface ProcMemory {
  rssMB: number;
  pssMB: number;
  privateMB: number;
}

/** Reads smaps_rollup of `pid` (Linux 4.14+). */
export function procMemory(pid: number): ProcMemory {
  const text = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (field: string) => {
    const m = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(text);
    if (!m) throw new Error(`no ${field} in /proc/${pid}/smaps_rollup`);
    return (Number(m[1]) * 1024) / 1e6;
  };
  return {
    rssMB: kb('Rss'),
    pssMB: kb('Pss'),
    privateMB: kb('Private_Clean') + kb('Private_Dirty'),
  };
}
