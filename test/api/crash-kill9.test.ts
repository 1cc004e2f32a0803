/**
 * Durability under a crash: the real server (a child process) takes 300 sequential row appends
 * and is SIGKILLed at a random one (between the 30th and the 270th). After a restart on the same
 * HEALTH_HOME every acknowledged append is there exactly once, in order, nothing that was never
 * sent shows up, at most the one append in flight at the kill is there unacknowledged, and the
 * database passes PRAGMA integrity_check.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import {
  assertDistBuilt,
  type ChildServer,
  killAllChildren,
  spawnServer,
  writeableCard,
} from '../helpers/child-server.js';
import { sandboxHome } from '../helpers/sandbox-home.js';

const TOTAL = 300;
const CARD = 'crash-seq';

describe('SIGKILL in the middle of sequential appends', () => {
  const box = sandboxHome('klebb-kill9-');
  afterAll(async () => {
    await killAllChildren();
    box.remove();
  });

  it('keeps every acknowledged append exactly once and an intact database', {
    timeout: 120_000,
  }, async () => {
    assertDistBuilt();
    let child: ChildServer = await spawnServer({ home: box.home });
    const created = await child.api('/api/manifests', { json: writeableCard(CARD) });
    expect(created.status, created.text).toBe(201);

    const killAt = 30 + Math.floor(Math.random() * (270 - 30 + 1));
    const killDelayMs = Math.random() * 3;
    console.log(
      `[crash-kill9] SIGKILL while append #${killAt} is in flight (after ~${killDelayMs.toFixed(2)} ms)`,
    );

    const acked: number[] = [];
    const failed: number[] = [];
    let inFlightAtKill: number | undefined;
    for (let seq = 0; seq < TOTAL; seq++) {
      const req = child
        .api(`/api/manifests/${CARD}/rows`, { json: { value: { seq } } })
        .then((r) => r.status)
        .catch(() => 0);
      if (seq === killAt) {
        inFlightAtKill = seq;
        await new Promise((r) => setTimeout(r, killDelayMs));
        child.signal('SIGKILL');
      }
      const status = await req;
      if (status >= 200 && status < 300) acked.push(seq);
      else failed.push(seq);
    }
    const exit = await child.exited;
    expect(exit.signal).toBe('SIGKILL');
    console.log(`[crash-kill9] acknowledged ${acked.length}, not acknowledged ${failed.length}`);

    // everything before the kill was acknowledged, nothing after it could be
    expect(acked.length).toBeGreaterThanOrEqual(killAt);
    expect(acked).toEqual([...Array(acked.length).keys()]);

    child = await spawnServer({ home: box.home });
    const d = await child.api(`/api/manifests/${CARD}/data`);
    expect(d.status).toBe(200);
    const seqs = (d.body.data as { seq: number }[]).map((row) => row.seq);

    // every acknowledged seq exactly once
    for (const seq of acked)
      expect(
        seqs.filter((x) => x === seq),
        `seq ${seq}`,
      ).toHaveLength(1);
    // nothing that was not sent (or not yet sent when the server died)
    const mayBeThere = new Set([...acked, ...(inFlightAtKill === undefined ? [] : [inFlightAtKill])]);
    expect(seqs.filter((x) => !mayBeThere.has(x))).toEqual([]);
    expect(new Set(seqs).size).toBe(seqs.length);
    // in append order
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    // the card's row count agrees with its rows
    const list = await child.api('/api/manifests');
    expect(list.body.entries.find((e: { id: string }) => e.id === CARD)?.rowCount).toBe(seqs.length);

    const stopped = await child.stop();
    expect(stopped.forced).toBe(false);

    const db = new Database(path.join(box.home, 'db/klebb.sqlite'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const n = db.prepare('SELECT count(*) FROM card_rows WHERE card_id = ?').pluck().get(CARD);
      expect(n).toBe(seqs.length);
    } finally {
      db.close();
    }
  });
});
