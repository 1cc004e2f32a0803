/**
 * An editor saving a manifest in steps (first cut short, or briefly without `$schema`) never makes
 * the card look broken or vanish: the watcher judges a file that does not read whole only once it
 * has been quiet for a settle window, and the card and its rows stay meanwhile. A file that stays
 * broken is still reported. And reading a card never sends a live event, even when its file
 * changed behind the server's back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CardEvent } from '../../src/cards/card-loader.js';
import { MANIFEST_SETTLE_MS } from '../../src/limits.js';
import { startServer, type TestServer } from '../helpers/server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const whole = (label: string) =>
  `${JSON.stringify({ $schema: 'klebb.datafile.v1', meta: { id: 'steps', label, writeable: { fromWebapp: true } } }, null, 2)}\n`;

let s: TestServer;
let events: CardEvent[];
let file: string;

async function start(watch: boolean): Promise<void> {
  s = await startServer({ watch });
  const r = await s.api('/api/manifests', {
    json: { ...JSON.parse(whole('Steps')), data: [{ date: '2026-01-01', n: 1 }] },
  });
  expect(r.status).toBe(201);
  file = path.join(s.dataDir, 'steps.json');
  events = [];
  s.inst.events.on('card', (e) => events.push(e));
}
afterEach(async () => {
  await s.close();
});

/** Polls the card every 15 ms for `ms`; returns the statuses seen and the load errors seen. */
async function watchCard(ms: number): Promise<{ statuses: Set<number>; errors: Set<string> }> {
  const statuses = new Set<number>();
  const errors = new Set<string>();
  const end = Date.now() + ms;
  while (Date.now() < end) {
    statuses.add((await s.api('/api/manifests/steps')).status);
    for (const e of (await s.api('/api/manifests')).body.errors as { code: string }[]) errors.add(e.code);
    await sleep(15);
  }
  return { statuses, errors };
}

describe('a manifest saved in steps', () => {
  it('cut short for a moment: never reported broken, the card stays', async () => {
    await start(true);
    const text = whole('Steps per day');
    fs.writeFileSync(file, text.slice(0, 40));
    const seen = watchCard(MANIFEST_SETTLE_MS + 400);
    await sleep(150);
    fs.writeFileSync(file, text);
    const { statuses, errors } = await seen;
    expect([...statuses]).toEqual([200]);
    expect([...errors]).toEqual([]);
    expect(events.filter((e) => e.type === 'file-error' || e.type === 'card-removed')).toEqual([]);
    expect((await s.api('/api/manifests/steps')).body.meta.label).toBe('Steps per day');
    expect((await s.api('/api/manifests/steps/data')).body.data).toHaveLength(1);
  });

  it('briefly without $schema: the card never vanishes and keeps its rows', async () => {
    await start(true);
    const { $schema: _s, ...rest } = JSON.parse(whole('Steps'));
    fs.writeFileSync(file, JSON.stringify(rest));
    const seen = watchCard(MANIFEST_SETTLE_MS + 400);
    await sleep(150);
    fs.writeFileSync(file, whole('Steps again'));
    const { statuses } = await seen;
    expect([...statuses]).toEqual([200]);
    expect(events.filter((e) => e.type === 'card-removed')).toEqual([]);
    expect((await s.api('/api/manifests/steps/data')).body.data).toHaveLength(1);
  });

  it('a file that stays broken is still reported once it is quiet', async () => {
    await start(true);
    fs.writeFileSync(file, '{"$schema": "klebb.datafile.v1", "meta": {');
    const deadline = Date.now() + MANIFEST_SETTLE_MS + 2_000;
    let codes: string[] = [];
    while (Date.now() < deadline && !codes.includes('INVALID_JSON')) {
      codes = ((await s.api('/api/manifests')).body.errors as { code: string }[]).map((e) => e.code);
      await sleep(30);
    }
    expect(codes).toContain('INVALID_JSON');
    expect((await s.api('/api/manifests/steps')).status).toBe(200);
  });
});

describe('reading a card', () => {
  it('never sends a live event, even when its file changed on disk', async () => {
    await start(false);
    fs.writeFileSync(file, whole('Edited by hand'));
    fs.writeFileSync(path.join(s.dataDir, 'other.json'), '{broken');
    for (const p of [
      '/api/manifests/steps',
      '/api/manifests/steps/data',
      '/api/manifests/steps/rows',
      '/api/manifests',
    ])
      expect((await s.api(p)).status).toBe(200);
    expect(events).toEqual([]);
  });
});
