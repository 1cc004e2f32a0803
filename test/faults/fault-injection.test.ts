/**
 * Fault injection over every kind of write (append, row patch, data replace, card create and
 * delete, reorder, manifest patch, Health Auto Export push, a dropped-in file to import, hand
 * edits racing the API), each run judged by test/faults/workload.ts: every acknowledged write
 * present exactly once, every refused write absent, PRAGMA integrity_check ok, every manifest
 * valid JSON, no card without its rows nor rows without a card, no leftovers.
 *
 * - kill -9 at a random moment of the workload, then a restart on the same home;
 * - a full disk in the middle of the workload (a small tmpfs; skipped where mounting is not
 *   permitted: test/api/disk-full.test.ts injects the same faults in-process there);
 * - a second process holding the database's write lock, shorter and longer than the busy timeout.
 *
 * The totals (tried / acknowledged / refused / unknown / lost / half-done) are printed. Rounds:
 * FAULT_KILL_ROUNDS (default 5).
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SQLITE_BUSY_TIMEOUT_MS } from '../../src/limits.js';
import { type ChildServer, killAllChildren, spawnServer } from '../helpers/child-server.js';
import { holdDatabase } from '../helpers/db-holder.js';
import { sandboxHome } from '../helpers/sandbox-home.js';
import { smallDisk } from '../helpers/small-disk.js';
import { addCounts, check, emptyCounts, type FaultCounts, prepareHome, Workload } from './workload.js';

const KILL_ROUNDS = Number(process.env.FAULT_KILL_ROUNDS ?? 5);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const homes: { remove(): void }[] = [];
const total = emptyCounts();

afterAll(async () => {
  await killAllChildren();
  for (const h of homes) h.remove();
  console.log(
    `[fault-injection] total: tried ${total.tried}, acknowledged ${total.acked}, refused ${total.refused}, ` +
      `unknown ${total.unknown}, lost ${total.lost}, half-done ${total.halfDone}`,
  );
});

function report(name: string, c: FaultCounts): void {
  addCounts(total, c);
  console.log(
    `[fault-injection] ${name}: tried ${c.tried}, acknowledged ${c.acked}, refused ${c.refused}, unknown ${c.unknown}, lost ${c.lost}, half-done ${c.halfDone}`,
  );
  if (c.problems.length) console.log(c.problems.slice(0, 20).join('\n'));
}

async function startWorkload(home: string): Promise<{ server: ChildServer; w: Workload }> {
  const server = await spawnServer({ home });
  const token = await prepareHome(server);
  const w = new Workload(server, path.join(home, 'data'), token, 0).start();
  return { server, w };
}

describe('fault injection', () => {
  it(`kill -9 at random moments of every kind of write (${KILL_ROUNDS} rounds)`, {
    timeout: 240_000,
  }, async () => {
    const sum = emptyCounts();
    for (let round = 0; round < KILL_ROUNDS; round++) {
      const box = sandboxHome('klebb-fault-kill-');
      homes.push(box);
      const { server, w } = await startWorkload(box.home);
      await sleep(300 + Math.random() * 1200);
      server.signal('SIGKILL');
      await server.exited;
      await w.stop();
      const again = await spawnServer({ home: box.home });
      await sleep(400); // the watcher's settle window for the last dropped-in file
      addCounts(sum, (await check(w, again, box.home)).counts);
    }
    report('kill -9', sum);
    expect(sum.problems).toEqual([]);
    expect(sum.acked).toBeGreaterThan(0);
  });

  it('a full disk in the middle of the workload', { timeout: 120_000 }, async (ctx) => {
    const disk = smallDisk(32, 'klebb-fault-disk-');
    homes.push(disk);
    if (!disk.mounted) {
      console.log('[fault-injection] full disk: tmpfs not permitted here; see test/api/disk-full.test.ts');
      ctx.skip();
    }
    const { server, w } = await startWorkload(disk.dir);
    await sleep(500);
    disk.fill();
    await sleep(1_500);
    disk.free();
    await sleep(300);
    await w.stop();
    const stopped = await server.stop();
    expect(stopped.code, server.output()).toBe(0);
    const again = await spawnServer({ home: disk.dir });
    await sleep(400);
    const { counts } = await check(w, again, disk.dir);
    report('full disk', counts);
    expect(counts.problems).toEqual([]);
  });

  it('a second process holding the database lock', { timeout: 120_000 }, async () => {
    const box = sandboxHome('klebb-fault-lock-');
    homes.push(box);
    const { server, w } = await startWorkload(box.home);
    const dbFile = path.join(box.home, 'db/klebb.sqlite');
    await sleep(300);
    const short = holdDatabase(dbFile, 1_000);
    await short.done;
    const long = holdDatabase(dbFile, SQLITE_BUSY_TIMEOUT_MS + 1_500);
    await long.done;
    await sleep(300);
    await w.stop();
    await server.stop();
    const again = await spawnServer({ home: box.home });
    await sleep(400);
    const { counts } = await check(w, again, box.home);
    report('database lock', counts);
    expect(counts.problems).toEqual([]);
  });
});
