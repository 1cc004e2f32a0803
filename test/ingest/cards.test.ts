/**
 * Cards and the HAE catalogue on the real server (docs/MANIFEST-SCHEMA.md "ingest"):
 * an unknown metric is 422 on create and patch and dropped at load; aliases are
 * accepted; the category is filled from the catalogue at create; a card created after samples
 * exist is filled from them; several cards on one metric each get their copy; rows are upserted
 * by date around rows the card already has.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { haeBytes, haeCard, type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const MAR2023 = 'generated-2023-v1-kg.json';

function steps(points: [string, number][], name = 'step_count'): string {
  return JSON.stringify({
    data: { metrics: [{ name, units: 'count', data: points.map(([date, qty]) => ({ date, qty })) }] },
  });
}

describe('meta.ingest and the catalogue', () => {
  it('an unknown metric is 422 on create and on patch; a known one and an alias are accepted', async () => {
    srv = await startIngestServer();
    const bad = await srv.api('/api/manifests', { json: haeCard('stepz', 'stepz') });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(
      /^invalid ingest: meta\.ingest\.metric "stepz" is not a metric of the Health Auto Export catalogue/,
    );
    expect(bad.body.details).toEqual([expect.objectContaining({ path: 'meta.ingest.metric' })]);

    await srv.createCard(haeCard('coffee', 'dietary_caffeine'));
    const patchBad = await srv.api('/api/manifests/coffee', {
      method: 'PATCH',
      json: { meta: { ingest: { source: 'hae', metric: 'cafeine' } } },
    });
    expect(patchBad.status).toBe(422);
    expect(patchBad.body.error).toMatch(/invalid ingest/);
    const patchOk = await srv.api('/api/manifests/coffee', {
      method: 'PATCH',
      json: { meta: { ingest: { source: 'hae', metric: 'caffeine' } } },
    });
    expect(patchOk.status).toBe(200);
    expect(patchOk.body.changed).toBe(true);
  });

  it('fills the category from the catalogue at create, and keeps one that is given', async () => {
    srv = await startIngestServer();
    await srv.createCard(haeCard('weight', 'body_mass'));
    await srv.createCard(haeCard('sleep', 'sleep_analysis', { category: 'recovery' }));
    const list = (await srv.api('/api/manifests')).body.entries as {
      id: string;
      meta: Record<string, unknown>;
    }[];
    const meta = (id: string) => list.find((e) => e.id === id)?.meta;
    expect(meta('weight')?.category).toBe('body');
    expect(meta('sleep')?.category).toBe('recovery');
    // the file on disk carries it too (it is part of the card from then on)
    const file = JSON.parse(fs.readFileSync(path.join(srv.dataDir, 'weight.json'), 'utf8'));
    expect(file.meta.category).toBe('body');
  });

  it('a hand-written file with an unknown metric loads with meta.ingest dropped and the drop listed', async () => {
    srv = await startIngestServer();
    fs.writeFileSync(
      path.join(srv.dataDir, 'typo.json'),
      JSON.stringify({ ...haeCard('typo', 'stepcuont'), data: [] }),
    );
    srv.inst.cards.loader.scanAll();
    const res = (await srv.api('/api/manifests')).body;
    const card = res.entries.find((e: { id: string }) => e.id === 'typo');
    expect(card).toBeDefined();
    expect(card.meta.ingest).toBeUndefined();
    expect(res.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: 'typo.json', code: 'FIELD_DROPPED', path: 'meta.ingest' }),
      ]),
    );
    // and it is not treated as a subscriber: the metric stays available in discoveries
    const r = await srv.push(steps([['2025-01-01 00:00:00 +0000', 10]]));
    expect(r.body.ingested).toEqual({});
    expect(r.body.availableUnsubscribed).toEqual(['step_count']);
  });
});

describe('filling cards', () => {
  it('a card created after samples exist is filled from them; several cards on one metric each get a copy', async () => {
    srv = await startIngestServer();
    const r = await srv.push(haeBytes(MAR2023));
    expect(r.status).toBe(200);
    expect(r.body.ingested).toEqual({});
    const created = await srv.createCard(haeCard('steps', 'step_count'));
    expect(created.status).toBe(201);
    const rows = await srv.rows('steps');
    // 30 daily step totals in the file; "2023-03-01 00:00:00 +1100" qty 3000
    expect(rows).toHaveLength(30);
    expect(rows[0]).toEqual({ date: '2023-03-01', count: 3000 });
    // the change is recorded with the actor hae
    const actors = srv.inst.db
      .prepare("SELECT DISTINCT actor FROM changes WHERE card_id = 'steps'")
      .pluck()
      .all();
    expect(actors).toEqual(expect.arrayContaining(['hae']));

    await srv.createCard(haeCard('steps-too', 'step_count'));
    expect(await srv.rows('steps-too')).toEqual(rows);
    const again = await srv.push(steps([['2023-03-31 00:00:00 +1100', 4321]]));
    expect(again.body.ingested).toEqual({ steps: 1, 'steps-too': 1 });
    expect((await srv.rows('steps')).at(-1)).toEqual({ date: '2023-03-31', count: 4321 });
    expect((await srv.rows('steps-too')).at(-1)).toEqual({ date: '2023-03-31', count: 4321 });
  });

  it('a card created with rows of its own is not replayed into', async () => {
    srv = await startIngestServer();
    await srv.push(steps([['2025-01-01 00:00:00 +0000', 10]]));
    await srv.createCard({ ...haeCard('mine', 'step_count'), data: [{ date: '2024-12-31', count: 3 }] });
    expect(await srv.rows('mine')).toEqual([{ date: '2024-12-31', count: 3 }]);
  });

  it('upserts by date: replaces the row of a date, inserts new dates in date order, keeps other rows', async () => {
    srv = await startIngestServer();
    await srv.createCard({
      ...haeCard('steps', 'step_count'),
      data: [
        { date: '2025-01-01', count: 1, note: 'hand-entered' },
        { date: '2025-01-05', count: 5 },
        { date: '2025-01-09', count: 9 },
      ],
    });
    // minute samples of one date are summed; a partial day later sent complete replaces it
    const r = await srv.push(
      steps([
        ['2025-01-05 08:00:00 +0000', 100],
        ['2025-01-05 09:00:00 +0000', 200],
        ['2025-01-03 00:00:00 +0000', 33],
        ['2025-01-10 00:00:00 +0000', 1010],
      ]),
    );
    expect(r.body.ingested).toEqual({ steps: 3 });
    expect(await srv.rows('steps')).toEqual([
      { date: '2025-01-01', count: 1, note: 'hand-entered' },
      { date: '2025-01-03', count: 33 },
      { date: '2025-01-05', count: 300 },
      { date: '2025-01-09', count: 9 },
      { date: '2025-01-10', count: 1010 },
    ]);
    // the hour in progress, sent again complete: the later version wins, the others still count
    const r2 = await srv.push(steps([['2025-01-05 09:00:00 +0000', 250]]));
    expect(r2.body.ingested).toEqual({ steps: 1 });
    expect((await srv.rows('steps')).find((x) => x.date === '2025-01-05')).toEqual({
      date: '2025-01-05',
      count: 350,
    });
    // a re-send of an older version adds nothing (stored once) and does not bring the old value back
    const r3 = await srv.push(steps([['2025-01-05 09:00:00 +0000', 200]]));
    expect(r3.body.samples).toEqual({ received: 1, new: 0 });
    expect((await srv.rows('steps')).find((x) => x.date === '2025-01-05')).toEqual({
      date: '2025-01-05',
      count: 350,
    });
  });

  it('keeps a descending card descending, and leaves a card whose data is not a list alone', async () => {
    srv = await startIngestServer();
    await srv.createCard({
      ...haeCard('desc', 'step_count'),
      data: [
        { date: '2025-01-09', count: 9 },
        { date: '2025-01-01', count: 1 },
      ],
    });
    await srv.createCard({ ...haeCard('obj', 'step_count'), data: { total: 1 } });
    const r = await srv.push(
      steps([
        ['2025-01-05 00:00:00 +0000', 5],
        ['2025-01-10 00:00:00 +0000', 10],
      ]),
    );
    expect(r.body.ingested).toEqual({ desc: 2, obj: 0 });
    expect(r.body.warnings).toEqual([expect.stringMatching(/card obj: the card data is not a list/)]);
    expect((await srv.rows('desc')).map((x) => x.date)).toEqual([
      '2025-01-10',
      '2025-01-09',
      '2025-01-05',
      '2025-01-01',
    ]);
  });
});
