/**
 * Snapshots asked for in the same second (Take a snapshot now pressed twice, the request sent
 * again while the first still runs, several at once from a script) are each taken whole under
 * names of their own. Before, both built in one half-built folder named for the second: the later
 * one removed the earlier one's files as it started, and one of them failed with "the disk refused
 * the write (SQLITE_READONLY)" though nothing was wrong with the disk. Real server, real SQLite.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'snapshots-same-second-token';
let s: TestServer;

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  const r = await s.api('/api/manifests', {
    token: T,
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'weight', label: 'Weight' },
      data: [
        { date: '2026-04-01', kg: 80 },
        { date: '2026-04-02', kg: 79.5 },
      ],
    },
  });
  expect(r.status, r.text).toBe(201);
});
afterAll(() => s?.close());

describe('manual snapshots asked for at once', () => {
  it('are each taken whole under a name of its own', async () => {
    const answers = await Promise.all(
      [1, 2, 3].map(() => s.api('/api/backups', { method: 'POST', token: T })),
    );
    for (const a of answers) expect(a.status, a.text).toBe(201);
    const names = answers.map((a) => a.body.snapshot.name as string);
    expect(new Set(names).size).toBe(3);
    const listed = (await s.api('/api/backups', { token: T })).body.snapshots as {
      name: string;
      rows: number;
      damaged?: string;
    }[];
    for (const name of names) {
      const snap = listed.find((l) => l.name === name);
      expect(snap, name).toBeDefined();
      expect(snap?.damaged, name).toBeUndefined();
      // every row of the home (the weight card's two and the welcome card's)
      expect(snap?.rows, name).toBe(answers[0].body.snapshot.rows);
      expect(snap?.rows, name).toBeGreaterThanOrEqual(2);
    }
    // no half-built folder is left behind
    expect(fs.readdirSync(path.join(s.home, 'backups')).filter((f) => f.startsWith('.'))).toEqual([]);
  });
});
