/**
 * A restore, an import or a roll back replaces every card file of the data folder; the snapshot
 * taken first keeps a copy only of the cards the server has loaded. So a file the server has not
 * loaded (an unfinished hand edit, a file just dropped in, a card file deleted by hand moments
 * ago) refuses the job with 409 naming it, and nothing changes; once the watcher has loaded it,
 * the job goes through.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importJobEnd, serverWithSnapshot } from '../helpers/import-job.js';
import type { TestServer } from '../helpers/server.js';

const T = 'restore-hand-edit-token';
let s: TestServer;
let snapshot: string;

const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fileOf = (name: string) => path.join(s.dataDir, name);
const unfinished = '{"$schema":"klebb.datafile.v1","meta":{"id":"w","label":"half typed';

beforeEach(async () => {
  ({ s, snapshot } = await serverWithSnapshot(T));
});
afterEach(async () => {
  await s.close();
});

const restore = () => api(`/api/backups/${snapshot}/restore`, { json: { confirm: 'REPLACE' } });

describe('a restore over files the server has not loaded', () => {
  it('refuses while a card file holds an unfinished hand edit, and keeps its bytes', async () => {
    fs.writeFileSync(fileOf('w.json'), unfinished);
    const r = await restore();
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('FILE_INVALID');
    expect(r.body.error).toContain('w.json (does not load)');
    expect(r.body.files).toEqual([{ file: 'w.json', problem: 'does not load' }]);
    expect((await api('/api/import/status')).body.state).not.toBe('applying');
    await sleep(1_000);
    expect(fs.readFileSync(fileOf('w.json'), 'utf8')).toBe(unfinished);
  });

  it('refuses while a file just dropped in is not loaded yet, and goes through once it is', async () => {
    const dropped = JSON.stringify({ $schema: 'klebb.datafile.v1', meta: { id: 'notes', label: 'Notes' } });
    fs.writeFileSync(fileOf('notes.json'), dropped);
    const r = await restore();
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('FILE_CHANGED');
    expect(r.body.files).toEqual([{ file: 'notes.json', problem: 'not a loaded card' }]);
    expect(fs.readFileSync(fileOf('notes.json'), 'utf8')).toBe(dropped);
    // loaded by the watcher, it is a card like any other: the restore replaces it, and the
    // snapshot taken before keeps it
    for (let i = 0; i < 100 && (await api('/api/manifests/notes')).status !== 200; i++) await sleep(20);
    expect((await restore()).status).toBe(202);
    expect((await importJobEnd(s, T)).state).toBe('done');
    expect(fs.existsSync(fileOf('notes.json'))).toBe(false);
    const pre = fs.readdirSync(path.join(s.home, 'backups')).find((n) => n.startsWith('pre-import-'));
    expect(fs.readdirSync(path.join(s.home, 'backups', pre as string, 'cards'))).toContain('notes.json');
  });

  it('a roll back refuses while a card file was deleted by hand a moment ago', async () => {
    expect((await restore()).status).toBe(202);
    expect((await importJobEnd(s, T)).state).toBe('done');
    fs.rmSync(fileOf('w.json'));
    const r = await api('/api/import/rollback', { method: 'POST' });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('FILE_MISSING');
    expect(r.body.files).toEqual([{ file: 'w.json', problem: 'deleted by hand' }]);
    await sleep(1_000);
    expect(fs.existsSync(fileOf('w.json'))).toBe(false);
  });
});
