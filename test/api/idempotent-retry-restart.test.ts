/**
 * A write whose answer was lost because the server stopped right after storing it (an upgrade's
 * restart, a crash, a reboot) is sent again by the phone, with the same Idempotency-Key, once the
 * server is back. That retry must get the first answer and store nothing: the reading was stored
 * before the stop. The same holds for a script's append with a token. A key older than a day is
 * forgotten, across a restart too. Real server, real SQLite, a real stop and start on one home.
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEEP_MS } from '../../src/limits.js';
import { BLOOD_PRESSURE_CARD } from '../helpers/blood-pressure-card.js';
import { type ApiInit, startServer, type TestServer } from '../helpers/server.js';

const T = 'idempotent-restart-token';
let s: TestServer | undefined;
let home: string | undefined;

const api = (p: string, init: ApiInit = {}) => (s as TestServer).api(p, init);
const rowsOn = async (date: string) =>
  ((await api('/api/manifests/bp/data', { token: T })).body.data as { date: string }[]).filter(
    (r) => r.date === date,
  );

afterAll(async () => {
  await s?.close();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

describe('a write sent again after the server restarted', () => {
  it('is answered with the first answer and stored once, from the web app and from a token', async () => {
    s = await startServer({ env: { AGENT_API_TOKEN: T } });
    home = s.home;
    const card = await api('/api/manifests', {
      token: T,
      json: BLOOD_PRESSURE_CARD,
    });
    expect(card.status, card.text).toBe(201);

    const entry = {
      json: { entry: { date: '2026-04-20', sys: 135 } },
      headers: { 'idempotency-key': 'e-1' },
    };
    const row = {
      token: T,
      json: { value: { date: '2026-04-21', sys: 128 } },
      headers: { 'idempotency-key': 'r-1' },
    };
    const firstEntry = await api('/api/manifests/bp/entries', entry);
    expect(firstEntry.status, firstEntry.text).toBe(201);
    const firstRow = await api('/api/manifests/bp/rows', row);
    expect(firstRow.status, firstRow.text).toBe(201);

    await s.close({ keepHome: true });
    s = await startServer({ home, env: { AGENT_API_TOKEN: T } });

    const againEntry = await api('/api/manifests/bp/entries', entry);
    expect(againEntry.status, againEntry.text).toBe(201);
    expect(againEntry.headers.get('idempotent-replayed')).toBe('true');
    expect(againEntry.body).toEqual(firstEntry.body);
    expect(againEntry.headers.get('etag')).toBe(firstEntry.headers.get('etag'));
    const againRow = await api('/api/manifests/bp/rows', row);
    expect(againRow.status, againRow.text).toBe(201);
    expect(againRow.headers.get('idempotent-replayed')).toBe('true');
    expect(againRow.body).toEqual(firstRow.body);

    // the morning reading is still there beside the evening one, each once
    expect(await rowsOn('2026-04-20')).toEqual([
      { date: '2026-04-20', sys: 121 },
      { date: '2026-04-20', sys: 135 },
    ]);
    expect(await rowsOn('2026-04-21')).toEqual([{ date: '2026-04-21', sys: 128 }]);

    // the same key with another body is still refused after the restart
    const reused = await api('/api/manifests/bp/entries', {
      json: { entry: { date: '2026-04-20', sys: 140 } },
      headers: entry.headers,
    });
    expect(reused.status, reused.text).toBe(422);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('forgets a key kept longer than a day', async () => {
    const inst = (s as TestServer).inst;
    inst.db.prepare('UPDATE idempotent_replies SET at = at - ?').run(IDEMPOTENCY_KEEP_MS + 60_000);
    const later = await api('/api/manifests/bp/rows', {
      token: T,
      json: { value: { date: '2026-04-21', sys: 128 } },
      headers: { 'idempotency-key': 'r-1' },
    });
    expect(later.status, later.text).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(await rowsOn('2026-04-21')).toHaveLength(2);
  });
});
