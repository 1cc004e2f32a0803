/**
 * A row path written the way other tools write one (`[0]` for the first row, `[2026-04-20]` for a
 * day) is refused with a message that shows the spelling Klebb reads, and nothing changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
  await s.api('/api/manifests', {
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'bp', label: 'BP' },
      data: [
        { date: '2026-04-20', systolic: 120 },
        { date: '2026-04-21', systolic: 125 },
      ],
    },
  });
});
afterAll(async () => {
  await s.close();
});

const data = async () => (await s.api('/api/manifests/bp/data')).body.data;

describe('row paths in another notation', () => {
  it('a bare position ([0], [-1], [ 1 ]) says to write [index=N]', async () => {
    for (const [path, n] of [
      ['[0]', '0'],
      ['[-1]', '-1'],
      ['[ 1 ]', '1'],
      ['[1].systolic', '1'],
    ]) {
      const r = await s.api('/api/manifests/bp/rows', {
        method: 'PATCH',
        json: { path, changes: { systolic: 1 } },
      });
      expect(r.status, path).toBe(400);
      expect(r.body.code).toBe('BAD_PATH');
      expect(r.body.error, path).toContain(`[index=${n}]`);
    }
    const del = await s.api(`/api/manifests/bp/rows?path=${encodeURIComponent('[0]')}`, { method: 'DELETE' });
    expect(del.status).toBe(400);
    expect(del.body.error).toContain('[index=0]');
    expect(await data()).toEqual([
      { date: '2026-04-20', systolic: 120 },
      { date: '2026-04-21', systolic: 125 },
    ]);
  });

  it('a bare day ([2026-04-20], ["2026-04-20"]) says to write [date="…"]', async () => {
    for (const path of ['[2026-04-20]', '["2026-04-20"]', "['2026-04-20']"]) {
      const r = await s.api(`/api/manifests/bp/rows?path=${encodeURIComponent(path)}`);
      expect(r.status, path).toBe(400);
      expect(r.body.code).toBe('BAD_PATH');
      expect(r.body.error, path).toContain('[date="2026-04-20"]');
    }
  });

  it('a path in the right notation still works', async () => {
    const r = await s.api(`/api/manifests/bp/rows?path=${encodeURIComponent('[index=0]')}`);
    expect(r.status).toBe(200);
    expect(r.body.value ?? r.body.row).toMatchObject({ date: '2026-04-20' });
  });
});
