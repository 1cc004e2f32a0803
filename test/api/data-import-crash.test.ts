/**
 * SIGKILL while an import is being applied, at random points (during the snapshot, the database
 * transaction, the files): after a restart the home is wholly the old one or wholly the new one
 * (cards, their rows, conversations), never a mix, and the job says which (done, or failed with
 * nothing changed). Each round imports the archive of the state the home is not in.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { assertDistBuilt, type ChildServer, killAllChildren, spawnServer } from '../helpers/child-server.js';
import { sandboxHome } from '../helpers/sandbox-home.js';

const card = (id: string, n: number, field: string) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: id, writeable: { fromWebapp: true } },
  data: Array.from({ length: n }, (_, i) => ({ date: '2026-04-01', [field]: i })),
});

/** What identifies a state: each card with its row count, and the conversation titles. */
async function signature(c: ChildServer): Promise<string> {
  const list = await c.api('/api/manifests');
  expect(list.status, list.text).toBe(200);
  const cards = list.body.entries
    .map((e: { id: string; rowCount: number }) => `${e.id}:${e.rowCount}`)
    .sort();
  const convs = (await c.api('/api/conversations')).body.conversations
    .map((x: { title: string }) => x.title)
    .sort();
  return JSON.stringify({ cards, convs });
}

async function exportOf(c: ChildServer): Promise<Buffer> {
  const res = await fetch(`${c.url}/api/export`, { headers: { authorization: `Bearer ${c.token}` } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('SIGKILL during an import', () => {
  const a = sandboxHome('klebb-import-kill-a-');
  const b = sandboxHome('klebb-import-kill-b-');
  afterAll(async () => {
    await killAllChildren();
    a.remove();
    b.remove();
  });

  it('leaves the old home or the new one, never a mix', { timeout: 240_000 }, async () => {
    assertDistBuilt();
    // state B, made in its own home
    let other = await spawnServer({ home: b.home });
    for (const [id, n] of [
      ['weight', 40_000],
      ['mood', 20_000],
    ] as const) {
      expect((await other.api('/api/manifests', { json: card(id, n, 'v') })).status).toBe(201);
    }
    await other.api('/api/conversations', {
      json: { title: 'B', messages: [{ role: 'user', content: 'b' }] },
    });
    const sigB = await signature(other);
    const zipB = await exportOf(other);
    await other.stop();

    // state A, in the home under test
    let child = await spawnServer({ home: a.home });
    expect((await child.api('/api/manifests', { json: card('bp', 30_000, 'sys') })).status).toBe(201);
    await child.api('/api/conversations', {
      json: { title: 'A', messages: [{ role: 'user', content: 'a' }] },
    });
    const sigA = await signature(child);
    const zipA = await exportOf(child);
    expect(sigA).not.toBe(sigB);

    const delays = [0, 30, 100, 250, 500, 900, 1500];
    const seen: string[] = [];
    for (let round = 0; round < 5; round++) {
      const now = await signature(child);
      const zip = now === sigA ? zipB : zipA;
      expect(
        (await child.api('/api/import/upload', { body: zip, headers: { 'content-type': 'application/zip' } }))
          .status,
      ).toBe(200);
      const start = await child.api('/api/import/start', { method: 'POST' });
      expect(start.status, start.text).toBe(200);
      const go = await child.api('/api/import/apply', {
        json: { nonce: start.body.nonce, confirm: 'REPLACE' },
      });
      expect(go.status, go.text).toBe(202);
      const delay = delays[Math.floor(Math.random() * delays.length)];
      await new Promise((r) => setTimeout(r, delay));
      await child.kill();
      child = await spawnServer({ home: a.home });
      const after = await signature(child);
      const job = (await child.api('/api/import/status')).body;
      seen.push(
        `${delay}ms:${job.state}${job.recovered ? `/${job.recovered}` : ''}:${after === sigA ? 'A' : after === sigB ? 'B' : 'MIX'}`,
      );
      expect([sigA, sigB], `round ${round} after ${delay} ms: ${after}`).toContain(after);
      expect(['done', 'failed']).toContain(job.state);
      if (job.state === 'failed') expect(after).toBe(now);
      else expect(after).not.toBe(now);
    }
    console.log(`import kill rounds: ${seen.join(', ')}`);
    other = child;
    await other.stop();
  });
});
