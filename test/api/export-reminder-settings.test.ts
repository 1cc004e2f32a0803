/**
 * Reminder settings travel with a home: an export carries which reminders are on, their privacy,
 * quiet hours and a pause (in its manifest, `settings.reminders`); importing it into another
 * home puts them in place, Roll back brings the home's own back, a snapshot restore brings back
 * the snapshot's. Before, an export left them out: a home moved to a new server, or restored,
 * had every reminder back at its default (the morning reminder silently off). An archive whose
 * settings hold values Klebb never writes is refused, naming the field; an older archive without
 * them leaves the home's settings alone. A snapshot whose reminders.json was broken by hand is
 * listed as damaged and its restore refused, nothing changed: it would have put the cards back
 * and silently left their reminders as they were. Real servers, real archives.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJobEnd } from '../helpers/import-job.js';
import { weighInCard } from '../helpers/reminder-card.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { buildZip, readZip } from '../helpers/zip.js';

const T = 'reminder-export-token';
let a: TestServer;
let b: TestServer;

const weight = weighInCard('weight');

type Reminder = { id: string; enabled: boolean; privacy: string };
async function settings(s: TestServer) {
  const r = await s.api('/api/notifications', { token: T });
  const n = (r.body.notifications as Reminder[]).find((x) => x.id === 'weight#weigh-in');
  return {
    reminder: n && { enabled: n.enabled, privacy: n.privacy },
    quiet_hours: r.body.quiet_hours,
    paused_until: r.body.paused_until,
  };
}

async function choose(s: TestServer, enabled: boolean, privacy: string, quiet: unknown, pause: unknown) {
  const one = await s.api('/api/notifications/state', {
    token: T,
    json: { id: 'weight#weigh-in', enabled, privacy },
  });
  expect(one.status, one.text).toBe(200);
  const all = await s.api('/api/notifications/global-state', {
    token: T,
    json: { quiet_hours: quiet, paused_until: pause },
  });
  expect(all.status, all.text).toBe(200);
}

async function exportOf(s: TestServer): Promise<Buffer> {
  const res = await fetch(`${s.url}/api/export`, { headers: { authorization: `Bearer ${T}` } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** The archive again, its manifest changed by `edit` (checksums of the files stay right). */
async function withManifest(zip: Buffer, edit: (m: Record<string, unknown>) => void): Promise<Buffer> {
  const entries = await readZip(zip);
  const last = entries[entries.length - 1];
  const m = JSON.parse(last.data.toString('utf8'));
  edit(m);
  return buildZip([...entries.slice(0, -1), { name: last.name, data: JSON.stringify(m) }]);
}

/** Uploads and stages `zip` on `s`; the start's answer. */
async function stage(s: TestServer, zip: Buffer) {
  const up = await s.api('/api/import/upload', {
    token: T,
    body: zip,
    headers: { 'content-type': 'application/zip' },
  });
  expect(up.status, up.text).toBe(200);
  return s.api('/api/import/start', { token: T, method: 'POST' });
}

async function importAll(s: TestServer, zip: Buffer): Promise<void> {
  const start = await stage(s, zip);
  expect(start.status, start.text).toBe(200);
  const go = await s.api('/api/import/apply', {
    token: T,
    json: { nonce: start.body.nonce, confirm: 'REPLACE' },
  });
  expect(go.status, go.text).toBe(202);
  expect((await importJobEnd(s, T)).state).toBe('done');
}

const A_SETTINGS = {
  reminder: { enabled: true, privacy: 'public' },
  quiet_hours: { start: '23:00', end: '06:30' },
  paused_until: '2031-01-01T00:00:00.000Z',
};
const B_SETTINGS = {
  reminder: { enabled: false, privacy: 'private' },
  quiet_hours: { start: '22:00', end: '07:00' },
  paused_until: null,
};

beforeAll(async () => {
  a = await startServer({ env: { AGENT_API_TOKEN: T } });
  b = await startServer({ env: { AGENT_API_TOKEN: T } });
  for (const s of [a, b]) {
    s.inst.user.setTimeZone('UTC');
    expect((await s.api('/api/manifests', { token: T, json: weight })).status).toBe(201);
  }
  await choose(a, true, 'public', A_SETTINGS.quiet_hours, A_SETTINGS.paused_until);
  await choose(b, false, 'private', B_SETTINGS.quiet_hours, null);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

describe('reminder settings in an export', () => {
  it('are written into the manifest, the scheduler memory left out', async () => {
    const entries = await readZip(await exportOf(a));
    const m = JSON.parse(entries[entries.length - 1].data.toString('utf8'));
    expect(m.settings.reminders).toEqual({
      items: { 'weight#weigh-in': { enabled: true, privacy: 'public' } },
      quiet_hours: A_SETTINGS.quiet_hours,
      paused_until: A_SETTINGS.paused_until,
    });
  });

  it('come with an import, and Roll back brings the home its own again', async () => {
    expect(await settings(b)).toEqual(B_SETTINGS);
    await importAll(b, await exportOf(a));
    expect(await settings(b)).toEqual(A_SETTINGS);

    expect((await b.api('/api/import/rollback', { token: T, method: 'POST' })).status).toBe(202);
    expect((await importJobEnd(b, T)).state).toBe('done');
    expect(await settings(b)).toEqual(B_SETTINGS);
  });

  it('come back with a snapshot restore', async () => {
    const snap = await b.api('/api/backups', { token: T, method: 'POST' });
    expect(snap.status, snap.text).toBe(201);
    await choose(b, true, 'public', null, null);
    const restore = await b.api(`/api/backups/${snap.body.snapshot.name}/restore`, {
      token: T,
      json: { confirm: 'REPLACE' },
    });
    expect(restore.status, restore.text).toBe(202);
    expect((await importJobEnd(b, T)).state).toBe('done');
    expect(await settings(b)).toEqual(B_SETTINGS);
  });

  it('are refused, naming the field, when they hold a value Klebb never writes', async () => {
    const bad = await withManifest(await exportOf(a), (m) => {
      const s = m.settings as { reminders: { items: Record<string, Record<string, unknown>> } };
      s.reminders.items['weight#weigh-in'].enabled = 'yes';
    });
    const start = await stage(b, bad);
    expect(start.status).toBe(422);
    expect(start.body.code).toBe('IMPORT_BAD_MANIFEST');
    expect(start.body.details[0].path).toBe('manifest.settings.reminders.items.weight#weigh-in.enabled');
    expect(await settings(b)).toEqual(B_SETTINGS);
  });

  it('leave the home alone when an older archive carries none', async () => {
    const old = await withManifest(await exportOf(a), (m) => {
      delete m.settings;
    });
    await importAll(b, old);
    expect((await b.api('/api/manifests/weight/data', { token: T })).body.data).toEqual(weight.data);
    expect(await settings(b)).toEqual(B_SETTINGS);
  });

  it('keep only reminders the cards define: others an edited archive names are not taken', async () => {
    const edited = await withManifest(await exportOf(a), (m) => {
      const r = (m.settings as { reminders: { items: Record<string, unknown> } }).reminders;
      for (let i = 0; i < 500; i++) r.items[`weight#made-up-${i}`] = { enabled: true };
      r.items['nosuchcard#x'] = { enabled: true };
    });
    await importAll(b, edited);
    expect(await settings(b)).toEqual(A_SETTINGS);
    const state = JSON.parse(fs.readFileSync(path.join(b.home, 'notifications.state.json'), 'utf8'));
    expect(Object.keys(state.items)).toEqual(['weight#weigh-in']);
  });

  it('a snapshot whose reminder settings were broken by hand is damaged: its restore is refused, nothing changed', async () => {
    const snap = await b.api('/api/backups', { token: T, method: 'POST' });
    expect(snap.status, snap.text).toBe(201);
    const name = snap.body.snapshot.name as string;
    const file = path.join(b.home, 'backups', name, 'reminders.json');
    const before = await settings(b);
    for (const [text, says] of [
      ['{"items": {"weight#weigh-in": {"enabled": "yes"}}, "quiet_hours": null', 'not valid JSON'],
      [
        '{"items": {"weight#weigh-in": {"enabled": "yes"}}, "quiet_hours": null, "paused_until": null}',
        'enabled',
      ],
    ]) {
      fs.writeFileSync(file, text);
      const listed = (await b.api('/api/backups', { token: T })).body.snapshots as {
        name: string;
        damaged?: string;
      }[];
      expect(listed.find((x) => x.name === name)?.damaged).toContain('reminders.json');
      const restore = await b.api(`/api/backups/${name}/restore`, { token: T, json: { confirm: 'REPLACE' } });
      expect(restore.status, restore.text).toBe(422);
      expect(restore.body.code).toBe('SNAPSHOT_DAMAGED');
      expect(restore.body.error).toContain(says);
      expect(await settings(b)).toEqual(before);
    }
    // without the file the snapshot restores, leaving the reminder settings as they are
    fs.rmSync(file);
    const restore = await b.api(`/api/backups/${name}/restore`, { token: T, json: { confirm: 'REPLACE' } });
    expect(restore.status, restore.text).toBe(202);
    expect((await importJobEnd(b, T)).state).toBe('done');
    expect(await settings(b)).toEqual(before);
  });
});
