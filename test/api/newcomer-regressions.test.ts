/**
 * Regressions from a newcomer's pass over the README and docs (one `it` per finding): each
 * input once crashed, lost rows, answered 500, or let a stranger in.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeEach(async () => {
  s = await startServer();
});
afterEach(async () => {
  await s.close();
});

const card = (id: string, extra: Record<string, unknown> = {}) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: id, writeable: { fromWebapp: true } },
  ...extra,
});
const listed = async () =>
  (await s.api('/api/manifests')).body as {
    entries: { id: string; meta: { label: string } }[];
    errors: { file: string; code: string }[];
  };
const until = async (fn: () => Promise<boolean>, ms = 3000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await fn()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
};

describe('hand-dropped files', () => {
  it('H1: a deeply nested manifest is an error entry, not a crash; the server keeps serving and restarts', async () => {
    const deep = `{"$schema":"klebb.datafile.v1","meta":{"id":"deep","label":"D","x":${'['.repeat(20000)}${']'.repeat(20000)}}}`;
    fs.writeFileSync(path.join(s.dataDir, 'deep.json'), deep);
    expect(await until(async () => (await listed()).errors.some((e) => e.file === 'deep.json'))).toBe(true);
    expect((await listed()).errors.find((e) => e.file === 'deep.json')?.code).toBe('INVALID_JSON');
    expect((await s.api('/healthz')).status).toBe(200);
    const home = s.home;
    await s.close({ keepHome: true });
    s = await startServer({ home });
    expect((await listed()).errors.some((e) => e.file === 'deep.json')).toBe(true);
  });

  it("H3: a stray copy with a card's id never takes it over nor imports over its rows", async () => {
    await s.api('/api/manifests', {
      json: card('blood-pressure', { data: [{ date: '2026-04-20', systolic: 120 }] }),
    });
    fs.writeFileSync(
      path.join(s.dataDir, 'a-bp.json'),
      JSON.stringify(card('blood-pressure', { data: [{ date: '1999-01-01', systolic: 1 }] })),
    );
    expect(await until(async () => (await listed()).errors.some((e) => e.file === 'a-bp.json'))).toBe(true);
    expect((await listed()).errors.find((e) => e.file === 'a-bp.json')?.code).toBe('DUPLICATE_ID');
    expect((await s.api('/api/manifests/blood-pressure/data')).body.data).toEqual([
      { date: '2026-04-20', systolic: 120 },
    ]);
    // and after a restart the canonical file still wins
    const home = s.home;
    await s.close({ keepHome: true });
    s = await startServer({ home });
    expect((await s.api('/api/manifests/blood-pressure/data')).body.data).toEqual([
      { date: '2026-04-20', systolic: 120 },
    ]);
  });

  it('M2: a FIFO named *.json is reported, never read (the server stays responsive)', async () => {
    execFileSync('mkfifo', [path.join(s.dataDir, 'fifo.json')]);
    expect(await until(async () => (await listed()).errors.some((e) => e.file === 'fifo.json'))).toBe(true);
    expect((await s.api('/healthz')).status).toBe(200);
  });

  it('a UTF-8 byte order mark at the start of a hand-written file is accepted', async () => {
    fs.writeFileSync(path.join(s.dataDir, 'bom.json'), `\uFEFF${JSON.stringify(card('bom'))}`);
    expect(await until(async () => (await listed()).entries.some((e) => e.id === 'bom'))).toBe(true);
  });
});

describe('rows survive', () => {
  it('a duplicate that takes over a freed id does not import its stale data over the rows', async () => {
    await s.api('/api/manifests', { json: card('weight', { data: [{ date: '2026-04-20', kg: 80 }] }) });
    fs.writeFileSync(
      path.join(s.dataDir, 'a-copy.json'),
      JSON.stringify(card('weight', { data: [{ date: '1999-01-01', kg: 1 }] })),
    );
    expect(await until(async () => (await listed()).errors.some((e) => e.file === 'a-copy.json'))).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    fs.rmSync(path.join(s.dataDir, 'weight.json'));
    expect(
      await until(async () =>
        (await listed()).errors.some((e) => e.file === 'a-copy.json' && e.code === 'DATA_NOT_IMPORTED'),
      ),
    ).toBe(true);
    expect((await s.api('/api/manifests/weight/data')).body.data).toEqual([{ date: '2026-04-20', kg: 80 }]);
  });

  it('a card whose schema.type is object starts as {} when created without data', async () => {
    const r = await s.api('/api/manifests', {
      json: { $schema: 'klebb.datafile.v1', meta: { id: 'doc', label: 'Doc' }, schema: { type: 'object' } },
    });
    expect(r.status).toBe(201);
    expect((await s.api('/api/manifests/doc/data')).body.data).toEqual({});
  });

  it('H2: re-creating a card whose file was deleted by hand brings its rows back', async () => {
    await s.api('/api/manifests', { json: card('sleep', { data: [{ date: '2026-04-20', hours: 7 }] }) });
    await new Promise((r) => setTimeout(r, 300)); // the watcher has seen the new file
    fs.rmSync(path.join(s.dataDir, 'sleep.json'));
    expect(await until(async () => !(await listed()).entries.some((e) => e.id === 'sleep'))).toBe(true);
    const r = await s.api('/api/manifests', { json: card('sleep', { data: [] }) });
    expect(r.status).toBe(201);
    expect(r.body.restoredRows).toBe(1);
    expect((await s.api('/api/manifests/sleep/data')).body.data).toEqual([{ date: '2026-04-20', hours: 7 }]);
  });
});

describe('bad input is a 4xx', () => {
  it('M1: huge or exponent indexes and offsets are 400, not 500', async () => {
    await s.api('/api/manifests', { json: card('w', { data: [{ a: 1 }] }) });
    for (const p of ['[index=99999999999999999999999]', '[index=1e21]', '[index=1e2]', '[index=-1e300]']) {
      const r = await s.api(`/api/manifests/w/rows?path=${encodeURIComponent(p)}`);
      expect(r.status, p).toBe(400);
      expect(r.body.code).toBe('BAD_PATH');
    }
    expect((await s.api('/api/manifests/w/rows?offset=99999999999999999999999')).status).toBe(400);
  });

  it('a row path naming __proto__ or constructor is 400 BAD_PATH; a body holding __proto__ is 400 INVALID_JSON naming it', async () => {
    await s.api('/api/manifests', { json: card('proto', { data: [{ date: '2026-01-01', a: 1 }] }) });
    for (const p of ['[index=0].__proto__', '[index=0].constructor', '__proto__']) {
      const r = await s.api('/api/manifests/proto/rows', { json: { path: p, value: 1 } });
      expect(r.status, p).toBe(400);
      expect(r.body.code, p).toBe('BAD_PATH');
    }
    const poisoned = await s.api('/api/manifests/proto/data', {
      body: '{"data":[{"date":"2026-01-01","__proto__":[1]}]}',
      headers: { 'content-type': 'application/json' },
    });
    expect(poisoned.status).toBe(400);
    expect(poisoned.body.code).toBe('INVALID_JSON');
    expect(poisoned.body.error).toMatch(/"__proto__" key/);
    expect(poisoned.body.details[0].path).toBe('body.data[0].__proto__');
    expect((await s.api('/api/manifests/proto/data')).body.data).toEqual([{ date: '2026-01-01', a: 1 }]);
  });

  it('M1: a value nested too deep is 400 INVALID_JSON and nothing is written', async () => {
    await s.api('/api/manifests', { json: card('w', { data: [] }) });
    const body = `{"value":{"date":"2026-01-01","x":${'['.repeat(1000)}${']'.repeat(1000)}}}`;
    const r = await s.api('/api/manifests/w/rows', { body, headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('INVALID_JSON');
    expect((await s.api('/api/manifests/w/data')).body.data).toEqual([]);
  });

  it('broken text (a lone surrogate) is refused at the door', async () => {
    const r = await s.api('/api/manifests', {
      body: '{"$schema":"klebb.datafile.v1","meta":{"id":"x","label":"\\ud800"}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(400);
  });

  it('a label with no visible character is refused', async () => {
    const r = await s.api('/api/manifests', {
      json: { $schema: 'klebb.datafile.v1', meta: { id: 'zw', label: '\u200b' } },
    });
    expect(r.status).toBe(400);
  });

  it('M4: an If-Match that is not a quoted entity tag is 400, not 412', async () => {
    await s.api('/api/manifests', { json: card('e', { data: [] }) });
    const tag = (await s.api('/api/manifests/e/data')).headers.get('etag') as string;
    const r = await s.api('/api/manifests/e/data', {
      json: { data: [] },
      headers: { 'if-match': tag.replace(/"/g, '') },
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('BAD_IF_MATCH');
  });

  it('date-keyed data: rows start with a real date; impossible dates are not dates', async () => {
    await s.api('/api/manifests', { json: card('m', { data: [] }) });
    await s.api('/api/manifests/m/data', { json: { data: { '2026-04-20': { mood: 3 } } } });
    expect(Object.keys((await s.api('/api/manifests/m/data')).body.data[0])[0]).toBe('date');
    // (a card holding rows takes only rows: emptied first, it keeps whatever shape it is sent)
    await s.api('/api/manifests/m/data', { json: { data: [] } });
    await s.api('/api/manifests/m/data', { json: { data: { '2026-02-30': { mood: 3 } } } });
    expect((await s.api('/api/manifests/m/data')).body.data).toEqual({ '2026-02-30': { mood: 3 } });
  });
});

describe('strangers', () => {
  it('H4: a cross-site browser request or a foreign Host gets 401 even on loopback', async () => {
    const r = await s.api('/api/settings/cards/welcome/disable', {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(r.status).toBe(401);
    // fetch cannot set Host, so a plain node:http request plays the DNS-rebinding page
    const rebound = await new Promise<number>((resolve, reject) => {
      const u = new URL(`${s.url}/api/instance`);
      http
        .get(
          { host: u.hostname, port: u.port, path: u.pathname, headers: { host: 'evil.example' } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        )
        .on('error', reject);
    });
    expect(rebound).toBe(401);
    expect((await s.api('/api/manifests/welcome')).body.meta.enabled).not.toBe(false);
  });
});

describe('user time zone', () => {
  it('POST /api/user/tz stores a valid zone and refuses an unknown one', async () => {
    const ok = await s.api('/api/user/tz', { json: { tz: 'Pacific/Auckland' } });
    expect(ok.body).toEqual({ ok: true, tz: 'Pacific/Auckland', changed: true });
    expect((await s.api('/api/user/tz', { json: { tz: 'Pacific/Auckland' } })).body.changed).toBe(false);
    expect((await s.api('/api/user/tz', { json: { tz: 'Mars/Olympus' } })).status).toBe(400);
    expect(s.inst.user.timeZone()).toBe('Pacific/Auckland');
    // one zone is one value whatever its spelling
    const lower = await s.api('/api/user/tz', { json: { tz: 'pacific/auckland' } });
    expect(lower.body).toEqual({ ok: true, tz: 'Pacific/Auckland', changed: false });
  });
});
