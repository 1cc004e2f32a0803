/**
 * Named agent tokens: made by a person, shown once, stored as a digest,
 * read-only or read-write (a read-only token gets 403 on every write), revocable, with a
 * last-used time; AGENT_API_TOKEN keeps working as docs/API.md says.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { browser, codeOf, register } from './flows.js';
import { SoftAuthenticator } from './soft-authenticator.js';

const clock = { now: Date.parse('2026-04-20T10:00:00Z') };
let s: TestServer;
let cookie: string;

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: 'seed-agent-token' }, auth: { now: () => clock.now } });
});
afterAll(async () => {
  await s?.close();
});

const card = {
  $schema: 'klebb.datafile.v1',
  meta: { id: 'weight', label: 'Weight', writeable: { fromWebapp: true } },
  data: [],
};

describe('before any passkey, this machine cannot mint tokens', () => {
  it('refuses a token to a credential-less loopback caller (403 PERSON_REQUIRED)', async () => {
    const r = await s.api('/api/tokens', { json: { name: 'cron', access: 'write' } });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('PERSON_REQUIRED');
  });
});

describe('with a passkey', () => {
  let readOnly: string;
  let readWrite: string;
  let roId: string;

  beforeAll(async () => {
    const reg = await register(s, new SoftAuthenticator(s.url), {
      code: codeOf(s.inst.auth.setupLink() as string),
    });
    cookie = reg.cookie as string;
    expect((await s.api('/api/manifests', { json: card, token: 'seed-agent-token' })).status).toBe(201);
  });

  it('a signed-in person creates tokens; the secret is shown once and never listed or stored', async () => {
    const ro = await s.api('/api/tokens', {
      json: { name: 'dashboard reader', access: 'read' },
      headers: browser(s.url, cookie),
    });
    const rw = await s.api('/api/tokens', {
      json: { name: 'logger', access: 'write' },
      headers: browser(s.url, cookie),
    });
    expect([ro.status, rw.status]).toEqual([201, 201]);
    readOnly = ro.body.secret;
    readWrite = rw.body.secret;
    roId = ro.body.token.id;
    const list = await s.api('/api/tokens', { headers: browser(s.url, cookie) });
    expect(list.body.tokens.map((t: { name: string }) => t.name)).toEqual(['dashboard reader', 'logger']);
    expect(JSON.stringify(list.body)).not.toContain(readOnly);
    expect(JSON.stringify(list.body)).not.toContain(readWrite);
    const file = fs.readFileSync(path.join(s.home, 'credentials', 'agent-tokens.json'), 'utf8');
    expect(file).not.toContain(readOnly);
    expect(file).not.toContain(readWrite);
    expect(fs.statSync(path.join(s.home, 'credentials', 'agent-tokens.json')).mode & 0o777).toBe(0o600);
  });

  it('a read-only token reads, and gets 403 on every write; nothing changes', async () => {
    expect((await s.api('/api/manifests', { token: readOnly })).status).toBe(200);
    expect((await s.api('/api/manifests/weight/data', { token: readOnly })).status).toBe(200);
    const writes = [
      s.api('/api/manifests/weight/rows', {
        json: { value: { date: '2026-04-20', kg: 80 } },
        token: readOnly,
      }),
      s.api('/api/manifests/weight/data', {
        json: { data: [{ date: '2026-04-20', kg: 80 }] },
        token: readOnly,
      }),
      s.api('/api/manifests/weight', { method: 'DELETE', token: readOnly }),
      s.api('/api/settings/cards/weight/disable', { method: 'POST', token: readOnly }),
      s.api('/api/manifests', { json: { ...card, meta: { ...card.meta, id: 'other' } }, token: readOnly }),
    ];
    for (const r of await Promise.all(writes)) {
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('READ_ONLY_TOKEN');
    }
    expect((await s.api('/api/manifests/weight/data', { token: readWrite })).body.data).toEqual([]);
    expect((await s.api('/api/manifests/other', { token: readWrite })).status).toBe(404);
  });

  it('a read-write token writes, recorded with its name as the actor', async () => {
    const r = await s.api('/api/manifests/weight/rows', {
      json: { value: { date: '2026-04-20', kg: 80 } },
      token: readWrite,
    });
    expect(r.status).toBe(201);
    const last = s.inst.db
      .prepare("SELECT actor FROM changes WHERE card_id = 'weight' ORDER BY id DESC LIMIT 1")
      .get() as {
      actor: string;
    };
    expect(last.actor).toBe('token:logger');
  });

  it('records when each token was last used', async () => {
    clock.now += 5 * 60_000;
    await s.api('/api/manifests', { token: readOnly });
    const list = await s.api('/api/tokens', { headers: browser(s.url, cookie) });
    const ro = list.body.tokens.find((t: { id: string }) => t.id === roId);
    expect(ro.lastUsedAt).toBe(new Date(clock.now).toISOString());
  });

  it('tokens cannot list, make or revoke tokens (403), not even read-write ones or AGENT_API_TOKEN', async () => {
    for (const token of [readWrite, 'seed-agent-token']) {
      // named tokens are stopped by the gate (credential routes), AGENT_API_TOKEN by the handler
      expect(['PERSON_REQUIRED', 'CREDENTIALS_NEED_SIGN_IN']).toContain(
        (await s.api('/api/tokens', { token })).body.code,
      );
      expect((await s.api('/api/tokens', { json: { name: 'x', access: 'write' }, token })).status).toBe(403);
      expect((await s.api(`/api/tokens/${roId}`, { method: 'DELETE', token })).status).toBe(403);
    }
    // and this machine without credentials no longer can either, once a passkey exists
    expect((await s.api('/api/tokens')).status).toBe(401);
  });

  it('bad requests are 400 naming the field', async () => {
    const h = browser(s.url, cookie);
    const cases: [unknown, string][] = [
      [{ access: 'read' }, 'body.name'],
      [{ name: '   ', access: 'read' }, 'body.name'],
      [{ name: 'x'.repeat(65), access: 'read' }, 'body.name'],
      [{ name: 'ok', access: 'admin' }, 'body.access'],
      [{ name: 'ok' }, 'body.access'],
    ];
    for (const [json, field] of cases) {
      const r = await s.api('/api/tokens', { json, headers: h });
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(r.body.details[0].path).toBe(field);
    }
    const dup = await s.api('/api/tokens', { json: { name: 'Logger', access: 'read' }, headers: h });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('TOKEN_NAME_TAKEN');
    // the same name typed with a combining accent, then precomposed and in capitals, is the same name
    const first = await s.api('/api/tokens', {
      json: { name: 'Cafe\u0301 log', access: 'read' },
      headers: h,
    });
    expect(first.status).toBe(201);
    const again = await s.api('/api/tokens', { json: { name: 'CAF\u00c9 LOG', access: 'read' }, headers: h });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('TOKEN_NAME_TAKEN');
  });

  it('a revoked token stops working at once; an unknown id is 404', async () => {
    const r = await s.api(`/api/tokens/${roId}`, { method: 'DELETE', headers: browser(s.url, cookie) });
    expect(r.status).toBe(200);
    expect(r.body.token.name).toBe('dashboard reader');
    expect((await s.api('/api/manifests', { token: readOnly })).status).toBe(401);
    expect(
      (await s.api(`/api/tokens/${roId}`, { method: 'DELETE', headers: browser(s.url, cookie) })).status,
    ).toBe(404);
  });

  it('AGENT_API_TOKEN keeps full access', async () => {
    const r = await s.api('/api/manifests/weight/rows', {
      json: { value: { date: '2026-04-21', kg: 79.5 } },
      token: 'seed-agent-token',
    });
    expect(r.status).toBe(201);
    expect((await s.api('/api/manifests/weight/data', { token: 'seed-agent-token' })).body.data).toHaveLength(
      2,
    );
  });
});
