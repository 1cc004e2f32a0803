/**
 * Export → import → export on real homes: a home filled with every card template (rows in some),
 * a Health Auto Export push, an Apple Health import, conversations and a report is exported over
 * HTTP, imported with the CLI into a fresh folder (`npm run import -- FILE --apply --target`),
 * and served again: cards, rows, samples, pushes, conversations and reminder settings are
 * deep-equal, and exporting the new home gives the same inventory checksums as the first archive.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as importMain } from '../../scripts/import.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { readTemplate, templateIds } from '../helpers/templates.js';
import { readZip } from '../helpers/zip.js';

const T = 'round-trip-token';
let s1: TestServer;
let s2: TestServer | undefined;
let work: string;

const api = (s: TestServer, p: string, init: Parameters<TestServer['api']>[1] = {}) =>
  s.api(p, { token: T, ...init });

function haePayload(): unknown {
  const days = ['2026-04-18', '2026-04-19', '2026-04-20'];
  return {
    data: {
      metrics: [
        {
          name: 'step_count',
          units: 'count',
          data: days.flatMap((d, i) => [
            { date: `${d} 08:00:00 +0200`, qty: 1200 + i, source: 'Phone' },
            { date: `${d} 18:30:00 +0200`, qty: 800 + i, source: 'Watch' },
          ]),
        },
        {
          name: 'resting_heart_rate',
          units: 'count/min',
          data: days.map((d, i) => ({ date: `${d} 00:00:00 +0200`, qty: 55 + i, source: 'Watch' })),
        },
      ],
    },
  };
}

const APPLE_XML = `<?xml version="1.0" encoding="UTF-8"?>
<HealthData locale="en_GB">
 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" creationDate="2026-04-21 20:00:00 +0200" startDate="2026-04-21 09:00:00 +0200" endDate="2026-04-21 09:10:00 +0200" value="800"/>
 <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="kg" creationDate="2026-04-21 07:00:00 +0200" startDate="2026-04-21 07:00:00 +0200" endDate="2026-04-21 07:00:00 +0200" value="81.4"/>
</HealthData>
`;

async function exportZip(s: TestServer, file: string): Promise<Buffer> {
  const res = await fetch(`${s.url}/api/export`, { headers: { authorization: `Bearer ${T}` } });
  expect(res.status).toBe(200);
  const buf = Buffer.from(await res.arrayBuffer());
  fs.writeFileSync(file, buf);
  return buf;
}

/** What a person can see of a home: cards (without versions and times), their data, conversations. */
async function visible(s: TestServer) {
  const list = await api(s, '/api/manifests');
  const cards = list.body.entries.map((e: Record<string, unknown>) => {
    const { version: _v, updatedAt: _u, ...rest } = e;
    return rest;
  });
  const data: Record<string, unknown> = {};
  for (const c of cards) data[c.id as string] = (await api(s, `/api/manifests/${c.id}/data`)).body?.data;
  const convs = (await api(s, '/api/conversations')).body.conversations;
  const full = [];
  for (const c of convs) full.push((await api(s, `/api/conversations/${c.id}`)).body.conversation);
  return { cards, data, convs: full };
}

function tables(s: TestServer) {
  const db = new Database(s.inst.layout.dbFile, { readonly: true });
  try {
    const all = (sql: string) => db.prepare(sql).all();
    return {
      samples: all('SELECT * FROM hae_samples ORDER BY id'),
      pushes: all('SELECT * FROM hae_pushes ORDER BY id'),
      metrics: all('SELECT * FROM hae_metrics_seen ORDER BY metric'),
      messages: all('SELECT * FROM conversation_messages ORDER BY id'),
    };
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-roundtrip-'));
  s1 = await startServer({ env: { AGENT_API_TOKEN: T } });
  for (const id of templateIds()) {
    const res = await api(s1, '/api/manifests', { json: readTemplate(id) });
    expect(res.status, `template ${id}: ${res.text}`).toBe(201);
  }
  const rows = [
    { date: '2026-04-18', time: '08:00', systolic: 121, diastolic: 79, notes: 'ünïcödé ✓' },
    { date: '2026-04-19', systolic: 118, diastolic: 77 },
  ];
  for (const r of rows)
    expect((await api(s1, '/api/manifests/bp/rows', { json: { value: r } })).status).toBe(201);
  const tok = await api(s1, '/api/health-auto-export/token', { method: 'POST' });
  expect(tok.status).toBe(201);
  const push = await s1.api('/api/health-auto-export', { json: haePayload(), token: tok.body.token });
  expect(push.status, push.text).toBe(200);
  const apple = await api(s1, '/api/apple-health/import', {
    body: APPLE_XML,
    headers: { 'content-type': 'application/xml' },
  });
  expect(apple.status, apple.text).toBe(200);
  for (const title of ['Sleep questions', 'Blood pressure week']) {
    const c = await api(s1, '/api/conversations', {
      json: {
        title,
        messages: [
          { role: 'user', content: `About ${title}?` },
          { role: 'assistant', content: 'Here is what your cards say.' },
        ],
      },
    });
    expect(c.status, c.text).toBe(201);
  }
  fs.mkdirSync(path.join(s1.home, 'reports'), { recursive: true });
  fs.writeFileSync(path.join(s1.home, 'reports', '2026-04-labs.md'), '# Labs\n\nAll fine.\n');
  // a second report and a file of data/_meta: each plain file is staged after the one before
  fs.writeFileSync(path.join(s1.home, 'reports', '2026-05-letter.md'), '# Letter\n\nSee you in May.\n');
  const note = await api(s1, '/api/feedback', { json: { kind: 'feature', intent: 'a yearly view' } });
  expect(note.status, note.text).toBe(201);
  // reminder settings (no file of their own) travel in the archive's manifest
  const on = await api(s1, '/api/notifications/state', {
    json: { id: 'bp#evening-reading', enabled: true, privacy: 'public' },
  });
  expect(on.status, on.text).toBe(200);
  const quiet = await api(s1, '/api/notifications/global-state', {
    json: { quiet_hours: { start: '22:30', end: '06:45' } },
  });
  expect(quiet.status, quiet.text).toBe(200);
});

/** The evening blood-pressure reminder and quiet hours, as GET /api/notifications shows them. */
async function reminderSettings(s: TestServer) {
  const r = (await api(s, '/api/notifications')).body;
  const bp = r.notifications.find((n: { id: string }) => n.id === 'bp#evening-reading');
  return { enabled: bp.enabled, privacy: bp.privacy, quiet: r.quiet_hours };
}

afterAll(async () => {
  await s1?.close();
  await s2?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('export, import into a fresh home, export again', () => {
  it('gives the same cards, rows, samples and conversations, and the same checksums', async () => {
    const first = path.join(work, 'first.zip');
    const firstZip = await exportZip(s1, first);
    const target = path.join(work, 'new-home');
    const out: string[] = [];
    const err: string[] = [];
    const code = await importMain([first, '--apply', '--target', target], {
      out: (x) => out.push(x),
      err: (x) => err.push(x),
    });
    expect(code, err.join('')).toBe(0);
    expect(JSON.parse(out.join(''))).toMatchObject({ ok: true, applied: true, verified: true });

    s2 = await startServer({ home: target, env: { AGENT_API_TOKEN: T } });
    const a = await visible(s1);
    const b = await visible(s2);
    expect(a.cards.length).toBe(templateIds().length + 1);
    expect(b.cards).toEqual(a.cards);
    expect(b.data).toEqual(a.data);
    expect(b.convs).toEqual(a.convs);
    expect(a.convs).toHaveLength(2);
    const ta = tables(s1);
    expect(ta.samples.length).toBeGreaterThan(5);
    expect(ta.pushes.length).toBe(2);
    expect(tables(s2)).toEqual(ta);
    expect(await reminderSettings(s2)).toEqual({
      enabled: true,
      privacy: 'public',
      quiet: { start: '22:30', end: '06:45' },
    });
    expect(fs.readFileSync(path.join(target, 'reports', '2026-04-labs.md'), 'utf8')).toBe(
      '# Labs\n\nAll fine.\n',
    );
    expect(fs.readFileSync(path.join(target, 'reports', '2026-05-letter.md'), 'utf8')).toBe(
      '# Letter\n\nSee you in May.\n',
    );
    expect(fs.readFileSync(path.join(target, 'data', '_meta', 'feedback.jsonl'), 'utf8')).toContain(
      'a yearly view',
    );
    // nothing secret travelled: the new home has no HAE token
    expect(fs.existsSync(path.join(target, 'config.json'))).toBe(false);

    const second = await exportZip(s2, path.join(work, 'second.zip'));
    const inv = async (buf: Buffer) => {
      const entries = await readZip(buf);
      return JSON.parse(String(entries.at(-1)?.data));
    };
    const m1 = await inv(firstZip);
    const m2 = await inv(second);
    expect(m2.inventory.files).toEqual(m1.inventory.files);
    expect(m2.inventory.cards).toEqual(m1.inventory.cards);
    expect(m2.settings).toEqual(m1.settings);
  });

  it('a dry run checks the archive and writes nothing', async () => {
    const file = path.join(work, 'dry.zip');
    await exportZip(s1, file);
    const target = path.join(work, 'dry-home');
    const out: string[] = [];
    const code = await importMain([file, '--target', target], { out: (x) => out.push(x), err: () => {} });
    expect(code).toBe(0);
    expect(JSON.parse(out.join(''))).toMatchObject({ ok: true, dryRun: true, targetFresh: true });
    expect(fs.existsSync(target)).toBe(false);
  });

  it('--apply refuses a home that holds cards', async () => {
    const file = path.join(work, 'again.zip');
    await exportZip(s1, file);
    const err: string[] = [];
    const code = await importMain([file, '--apply', '--target', s1.home], {
      out: () => {},
      err: (x) => err.push(x),
    });
    expect(code).toBe(1);
    expect(err.join('')).toContain('is not a fresh home');
  });
});
