/**
 * Writes from many clients at once share one flush of the disk (src/store/wal-sync.ts), and each
 * is still answered only once it is on disk. The disk flush is slowed down here (fs.fdatasync
 * answers 150 ms late) so "answered before the flush ended" cannot pass by luck.
 */
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'group-commit-token';
const SLOW_MS = 150;
let s: TestServer;

const api = (path: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(path, { token: T, ...init });

/** Each flush of the WAL, with when it started and ended. */
let flushes: { start: number; end: number }[] = [];

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  const r = await api('/api/manifests', {
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'w', label: 'w', writeable: { fromWebapp: true } },
      data: [{ date: '2026-01-01', kg: 80 }],
    },
  });
  expect(r.status).toBe(201);
});
afterAll(async () => {
  await s.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

function slowFlushes(): void {
  flushes = [];
  const real = fs.fdatasync;
  vi.spyOn(fs, 'fdatasync').mockImplementation(((
    fd: number,
    cb: (err: NodeJS.ErrnoException | null) => void,
  ) => {
    const f = { start: Date.now(), end: 0 };
    flushes.push(f);
    setTimeout(
      () =>
        real(fd, (err) => {
          f.end = Date.now();
          cb(err);
        }),
      SLOW_MS,
    );
  }) as typeof fs.fdatasync);
}

const day = (i: number) => `2026-02-${String(i + 1).padStart(2, '0')}`;

describe('group commit', () => {
  it('answers eight concurrent appends only after a flush, with fewer flushes than appends', async () => {
    slowFlushes();
    const sent = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const r = await api('/api/manifests/w/rows', { json: { value: { date: day(i), kg: 70 + i } } });
        return { r, at: Date.now() };
      }),
    );
    for (const { r, at } of answers) {
      expect(r.status).toBe(201);
      expect(at - sent).toBeGreaterThanOrEqual(SLOW_MS);
      // a flush that ended before this answer left
      expect(flushes.some((f) => f.end > 0 && f.end <= at)).toBe(true);
    }
    expect(flushes.length).toBeGreaterThan(0);
    expect(flushes.length).toBeLessThan(8);
    // every request is its own change set, with its own ETag
    const etags = new Set(answers.map(({ r }) => r.headers.get('etag')));
    expect(etags.size).toBe(8);
    const sets = await api('/api/changes?card=w&limit=8');
    expect(sets.status).toBe(200);
    const newest = sets.body.changeSets as { changes: number; summary: string }[];
    expect(newest).toHaveLength(8);
    for (const set of newest) expect(set.changes).toBe(1);
  });

  it('a refused member of a group changes nothing and takes no other member down', async () => {
    const before = (await api('/api/manifests/w/rows?limit=1')).body.total as number;
    slowFlushes();
    const results = await Promise.all([
      api('/api/manifests/w/rows', { json: { value: { date: '2026-03-01', kg: 71 } } }),
      // a stale If-Match: 412, nothing written
      api('/api/manifests/w/rows', {
        json: { value: { date: '2026-03-02', kg: 72 } },
        headers: { 'if-match': '"v1"' },
      }),
      // a row path into a field of an array card: 422/400, nothing written
      api('/api/manifests/w/rows', { json: { path: 'nope', value: { date: '2026-03-03', kg: 73 } } }),
      api('/api/manifests/w/rows', { json: { value: { date: '2026-03-04', kg: 74 } } }),
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 412, 422, 201]);
    const rows = await api('/api/manifests/w/rows?limit=5');
    expect(rows.body.total).toBe(before + 2);
    const dates = (rows.body.rows as { date: string }[]).map((r) => r.date);
    expect(dates).toContain('2026-03-01');
    expect(dates).toContain('2026-03-04');
    expect(dates).not.toContain('2026-03-02');
    expect(dates).not.toContain('2026-03-03');
  });

  it('a failed flush answers every member of its group with 503 NOT_SAVED', async () => {
    vi.spyOn(fs, 'fdatasync').mockImplementation(((
      _fd: number,
      cb: (err: NodeJS.ErrnoException | null) => void,
    ) => {
      const err = Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
      setTimeout(() => cb(err), 20);
    }) as typeof fs.fdatasync);
    const results = await Promise.all(
      [0, 1, 2].map((i) =>
        api('/api/manifests/w/rows', { json: { value: { date: `2026-04-0${i + 1}`, kg: 60 } } }),
      ),
    );
    for (const r of results) {
      expect(r.status).toBe(503);
      expect(r.body.code).toBe('NOT_SAVED');
    }
    vi.restoreAllMocks();
    // the next write flushes again and is answered normally
    const ok = await api('/api/manifests/w/rows', { json: { value: { date: '2026-04-10', kg: 61 } } });
    expect(ok.status).toBe(201);
  });
});
