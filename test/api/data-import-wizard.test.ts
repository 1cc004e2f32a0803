/**
 * The web app's import on the real server: upload → start (preview per card, nonce) → apply
 * (REPLACE typed for a populated home, single-use nonce, selection checked) → 202 and status
 * polling → the home is the archive's selection → Roll back brings the old home back from the
 * automatic snapshot. Snapshots are listed and restorable; a hostile upload is refused with a
 * 422 and the home is untouched.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { buildZip } from '../helpers/zip.js';

const T = 'wizard-token';
let src: TestServer;
let s: TestServer;
let archive: Buffer;

const api = (x: TestServer, p: string, init: Parameters<TestServer['api']>[1] = {}) =>
  x.api(p, { token: T, ...init });
const card = (id: string, data: unknown[]) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: id.toUpperCase(), writeable: { fromWebapp: true } },
  data,
});

async function until(x: TestServer, state: string[]): Promise<Record<string, unknown>> {
  for (let i = 0; i < 400; i++) {
    const st = await api(x, '/api/import/status');
    if (state.includes(st.body.state)) return st.body;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the job did not finish');
}

const ids = async (x: TestServer) =>
  (await api(x, '/api/manifests')).body.entries.map((e: { id: string }) => e.id).sort();

beforeAll(async () => {
  src = await startServer({ env: { AGENT_API_TOKEN: T } });
  await api(src, '/api/manifests', {
    json: card('weight', [
      { date: '2026-04-01', kg: 80 },
      { date: '2026-04-02', kg: 79.5 },
    ]),
  });
  await api(src, '/api/manifests', { json: card('mood', [{ date: '2026-04-01', mood: 4 }]) });
  await api(src, '/api/conversations', {
    json: { title: 'From the archive', messages: [{ role: 'user', content: 'hi' }] },
  });
  const res = await fetch(`${src.url}/api/export`, { headers: { authorization: `Bearer ${T}` } });
  archive = Buffer.from(await res.arrayBuffer());

  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  const rows = Array.from({ length: 30_000 }, (_, i) => ({ date: '2026-03-01', systolic: 100 + (i % 50) }));
  await api(s, '/api/manifests', { json: card('bp', rows) });
  await api(s, '/api/conversations', {
    json: { title: 'Mine', messages: [{ role: 'user', content: 'old' }] },
  });
});
afterAll(async () => {
  await src?.close();
  await s?.close();
});

describe('Settings › Data import', () => {
  it('refuses a hostile upload with a 422 and leaves the home as it was', async () => {
    const before = await ids(s);
    const zip = await buildZip([{ name: 'xx/evil', data: 'x' }]);
    const bad = Buffer.from(zip);
    let i = bad.indexOf('xx/evil');
    while (i !== -1) {
      bad.write('../evil', i, 'latin1');
      i = bad.indexOf('xx/evil', i + 1);
    }
    expect(
      (await api(s, '/api/import/upload', { body: bad, headers: { 'content-type': 'application/zip' } }))
        .status,
    ).toBe(200);
    const start = await api(s, '/api/import/start', { method: 'POST' });
    expect(start.status).toBe(422);
    expect(start.body.code).toBe('ZIP_UNSAFE_NAME');
    expect(await ids(s)).toEqual(before);
    expect(fs.readdirSync(path.join(s.home, 'import'))).toEqual([]);
    expect(fs.existsSync(path.join(path.dirname(s.home), 'evil'))).toBe(false);
  });

  it('previews, asks for REPLACE, applies detached, and rolls back', async () => {
    const up = await api(s, '/api/import/upload', {
      body: archive,
      headers: { 'content-type': 'application/zip' },
    });
    expect(up.body).toEqual({ ok: true, bytes: archive.length });
    const start = await api(s, '/api/import/start', { method: 'POST' });
    expect(start.status, start.text).toBe(200);
    expect(start.body.state).toBe('staged');
    expect(start.body.target.populated).toBe(true);
    const preview = start.body.summary.cards.map((c: { id: string; rows: number }) => [c.id, c.rows]);
    expect(preview).toEqual([
      ['mood', 1],
      ['weight', 2],
      ['welcome', 1],
    ]);
    const nonce = start.body.nonce as string;
    expect((await api(s, '/api/import/status')).body.nonce).toBeUndefined();

    // the selection is checked before anyone is asked for REPLACE, and checking spends nothing
    const nothing = { cards: [], samples: false, conversations: false, reports: false };
    const checkEmpty = await api(s, '/api/import/check', { json: { selection: nothing } });
    expect(checkEmpty.status).toBe(400);
    expect(checkEmpty.body.code).toBe('SELECTION_EMPTY');
    expect(checkEmpty.body.details[0].path).toBe('body.selection');
    const checkUnknown = await api(s, '/api/import/check', {
      json: { selection: { cards: ['weight', 'zzz'] } },
    });
    expect(checkUnknown.status).toBe(400);
    expect(checkUnknown.body).toMatchObject({ code: 'SELECTION_INVALID' });
    expect(checkUnknown.body.error).toContain('zzz');
    expect(checkUnknown.body.details[0].path).toBe('body.selection.cards');
    const checked = await api(s, '/api/import/check', { json: { selection: { cards: ['weight'] } } });
    expect(checked.status, checked.text).toBe(200);
    expect(checked.body).toEqual({
      ok: true,
      populated: true,
      selection: { cards: ['weight'], samples: true, conversations: true, reports: true },
    });
    const emptyNoWord = await api(s, '/api/import/apply', { json: { nonce, selection: nothing } });
    expect(emptyNoWord.status).toBe(400);
    expect(emptyNoWord.body.code).toBe('SELECTION_EMPTY');
    const unknownNoWord = await api(s, '/api/import/apply', {
      json: { nonce, selection: { cards: ['zzz'] } },
    });
    expect(unknownNoWord.body.code).toBe('SELECTION_INVALID');

    const noWord = await api(s, '/api/import/apply', { json: { nonce } });
    expect(noWord.status).toBe(428);
    expect(noWord.body.code).toBe('CONFIRM_REQUIRED');
    const wrong = await api(s, '/api/import/apply', { json: { nonce: 'nope', confirm: 'REPLACE' } });
    expect(wrong.body.code).toBe('BAD_STATE');
    const badSel = await api(s, '/api/import/apply', {
      json: { nonce, confirm: 'REPLACE', selection: { cards: ['zzz'] } },
    });
    expect(badSel.status).toBe(400);
    expect(badSel.body.code).toBe('SELECTION_INVALID');
    const many = Array.from({ length: 10_000 }, (_, i) => `unknown-${i}-${'z'.repeat(50)}`);
    const manyBad = await api(s, '/api/import/apply', {
      json: { nonce, confirm: 'REPLACE', selection: { cards: many } },
    });
    expect(manyBad.body.code).toBe('SELECTION_INVALID');
    expect(manyBad.body.error).toContain('and 9995 more');
    expect(manyBad.text.length).toBeLessThan(2000);
    const empty = await api(s, '/api/import/apply', {
      json: {
        nonce,
        confirm: 'REPLACE',
        selection: { cards: [], samples: false, conversations: false, reports: false },
      },
    });
    expect(empty.body.code).toBe('SELECTION_EMPTY');

    const go = await api(s, '/api/import/apply', {
      json: { nonce, confirm: 'REPLACE', selection: { cards: ['weight', 'mood'] } },
    });
    expect(go.status).toBe(202);
    // while it applies, the rest of the API is frozen (or it has already finished)
    const during = await api(s, '/api/manifests');
    expect([200, 503]).toContain(during.status);
    if (during.status === 503) expect(during.body.code).toBe('IMPORT_FROZEN');
    // the nonce is spent
    expect((await api(s, '/api/import/apply', { json: { nonce, confirm: 'REPLACE' } })).status).toBe(409);

    const done = await until(s, ['done', 'failed']);
    expect(done.state, JSON.stringify(done)).toBe('done');
    expect(await ids(s)).toEqual(['mood', 'weight']);
    expect((await api(s, '/api/manifests/weight/data')).body.data).toEqual([
      { date: '2026-04-01', kg: 80 },
      { date: '2026-04-02', kg: 79.5 },
    ]);
    const convs = (await api(s, '/api/conversations')).body.conversations.map(
      (c: { title: string }) => c.title,
    );
    expect(convs).toEqual(['From the archive']);
    const snaps = (await api(s, '/api/backups')).body.snapshots;
    expect(snaps[0].kind).toBe('pre-import');
    expect(done.snapshot).toBe(snaps[0].name);

    const back = await api(s, '/api/import/rollback', { method: 'POST' });
    expect(back.status).toBe(202);
    const rolled = await until(s, ['done', 'failed']);
    expect(rolled).toMatchObject({ state: 'done', kind: 'rollback' });
    expect(await ids(s)).toEqual(['bp', 'welcome']);
    expect((await api(s, '/api/manifests/bp/data')).body.data).toHaveLength(30_000);
    expect(
      (await api(s, '/api/conversations')).body.conversations.map((c: { title: string }) => c.title),
    ).toEqual(['Mine']);
    const notStaged = await api(s, '/api/import/check', { json: {} });
    expect(notStaged.status).toBe(409);
    expect(notStaged.body.code).toBe('BAD_STATE');
    // no body at all is the same request as {} (the selection is optional)
    const noBody = await api(s, '/api/import/check', { method: 'POST' });
    expect(noBody.status, noBody.text).toBe(409);
    expect(noBody.body.code).toBe('BAD_STATE');
  });

  it('takes a snapshot on request and restores it (REPLACE required)', async () => {
    const taken = await api(s, '/api/backups', { method: 'POST' });
    expect(taken.status).toBe(201);
    const name = taken.body.snapshot.name as string;
    expect(taken.body.snapshot).toMatchObject({ kind: 'manual', cards: 2 });
    await api(s, '/api/manifests/bp', { method: 'DELETE' });
    expect(await ids(s)).toEqual(['welcome']);
    const refused = await api(s, `/api/backups/${name}/restore`, { json: {} });
    expect(refused.status).toBe(428);
    const unknown = await api(s, '/api/backups/daily-20200101-000000/restore', {
      json: { confirm: 'REPLACE' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NO_SNAPSHOT');
    const go = await api(s, `/api/backups/${name}/restore`, { json: { confirm: 'REPLACE' } });
    expect(go.status).toBe(202);
    expect(await until(s, ['done', 'failed'])).toMatchObject({ state: 'done', kind: 'restore' });
    expect(await ids(s)).toEqual(['bp', 'welcome']);
    expect((await api(s, '/api/manifests/bp/rows?limit=1')).body.rows).toHaveLength(1);
  });
});

describe('a fresh home', () => {
  it('imports without REPLACE', async () => {
    const fresh = await startServer({ env: { AGENT_API_TOKEN: T } });
    try {
      await api(fresh, '/api/import/upload', {
        body: archive,
        headers: { 'content-type': 'application/zip' },
      });
      const start = await api(fresh, '/api/import/start', { method: 'POST' });
      expect(start.body.target.populated).toBe(false);
      const go = await api(fresh, '/api/import/apply', { json: { nonce: start.body.nonce } });
      expect(go.status).toBe(202);
      expect(await until(fresh, ['done', 'failed'])).toMatchObject({ state: 'done' });
      expect(await ids(fresh)).toEqual(['mood', 'weight', 'welcome']);
    } finally {
      await fresh.close();
    }
  });
});

describe('a selection without cards', () => {
  it('cards: [] takes no card and leaves the home’s cards as they are; the sections chosen are replaced', async () => {
    const home = await startServer({ env: { AGENT_API_TOKEN: T } });
    try {
      await api(home, '/api/manifests', { json: card('bp', [{ date: '2026-03-01', systolic: 120 }]) });
      await api(home, '/api/conversations', {
        json: { title: 'Mine', messages: [{ role: 'user', content: 'old' }] },
      });
      await api(home, '/api/import/upload', {
        body: archive,
        headers: { 'content-type': 'application/zip' },
      });
      const start = await api(home, '/api/import/start', { method: 'POST' });
      const go = await api(home, '/api/import/apply', {
        json: {
          nonce: start.body.nonce,
          confirm: 'REPLACE',
          selection: { cards: [], samples: false, conversations: true, reports: false },
        },
      });
      expect(go.status, go.text).toBe(202);
      expect(await until(home, ['done', 'failed'])).toMatchObject({ state: 'done' });
      expect(await ids(home)).toEqual(['bp', 'welcome']);
      expect((await api(home, '/api/manifests/bp/data')).body.data).toEqual([
        { date: '2026-03-01', systolic: 120 },
      ]);
      const convs = (await api(home, '/api/conversations')).body.conversations.map(
        (c: { title: string }) => c.title,
      );
      expect(convs).toEqual(['From the archive']);
    } finally {
      await home.close();
    }
  });
});
