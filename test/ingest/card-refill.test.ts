/**
 * A card that gains `meta.ingest` after it was created is filled from the stored samples, as
 * create does; changing its metric refills it for the new metric (src/ingest/hae/follow.ts).
 * Both ways of changing a card: `PATCH /api/manifests/:id` and a hand edit of its file picked up
 * by the real watcher. Real server, real SQLite, real files.
 *
 * Expected rows come from the generated payload generated-2023-v1-kg.json (test/fixtures/hae-payloads.ts):
 * `step_count` has 30 daily points (local midnights, 1 to 30 March 2023), the first
 * "2023-03-01 00:00:00 +1100" qty 3000, the last 5873; `weight_body_mass` (kg) has 10 points, the
 * first "2023-03-01 ..." qty 82.4, the last "2023-03-28 ..." qty 81.05.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { haeBytes, haeCard, type IngestServer, startIngestServer } from './helpers.js';

const MAR2023 = 'generated-2023-v1-kg.json';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** A card without a subscription (as people make them before setting up the phone). */
function plainCard(id: string, data?: unknown[]): Record<string, unknown> {
  const { meta, ...rest } = haeCard(id, 'step_count') as { meta: Record<string, unknown> };
  const { ingest: _none, ...plainMeta } = meta;
  return { ...rest, meta: { ...plainMeta, label: id }, ...(data ? { data } : {}) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Calls `probe` until `ok` holds or 3 s passed; returns the last value (the caller asserts on it). */
async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 3000;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > deadline) return v;
    await sleep(25);
  }
}

/** The change sets of a card: actor and op, oldest first. */
/** The recorded changes to a card's rows, oldest first (manifest edits, recorded too, left out). */
function changes(s: IngestServer, id: string): { actor: string; op: string }[] {
  return s.inst.db
    .prepare("SELECT actor, op FROM changes WHERE card_id = ? AND op <> 'manifest' ORDER BY id")
    .all(id) as {
    actor: string;
    op: string;
  }[];
}

describe('PATCH /api/manifests/:id', () => {
  it('gaining meta.ingest merges the stored samples by date; rows of other dates stay', async () => {
    srv = await startIngestServer();
    expect((await srv.push(haeBytes(MAR2023))).status).toBe(200);
    await srv.createCard(
      plainCard('daily', [
        { date: '2023-02-20', count: 5, note: 'by hand, before the phone' },
        { date: '2023-03-01', count: 1 },
      ]),
    );
    const r = await srv.api('/api/manifests/daily', {
      method: 'PATCH',
      json: { meta: { ingest: { source: 'hae', metric: 'step_count' } } },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, id: 'daily', changed: true, etag: expect.any(String) });
    const rows = await srv.rows('daily');
    // 30 days from the file plus the hand row of a date the file does not have
    expect(rows).toHaveLength(31);
    expect(rows[0]).toEqual({ date: '2023-02-20', count: 5, note: 'by hand, before the phone' });
    // the hand row of 2023-03-01 is replaced by the file's 3000 (what a push of that date does)
    expect(rows[1]).toEqual({ date: '2023-03-01', count: 3000 });
    expect(rows.at(-1)).toEqual({ date: '2023-03-30', count: 5873 });
    expect(changes(srv, 'daily').at(-1)?.actor).toBe('hae');
  });

  it('changing the metric refills the card for the new one; an alias of the same metric or removing it changes no rows', async () => {
    srv = await startIngestServer();
    await srv.push(haeBytes(MAR2023));
    await srv.createCard(haeCard('tracked', 'step_count'));
    expect(await srv.rows('tracked')).toHaveLength(30);

    const r = await srv.api('/api/manifests/tracked', {
      method: 'PATCH',
      json: { meta: { ingest: { metric: 'weight_body_mass' } } },
    });
    expect(r.status).toBe(200);
    const weight = await srv.rows('tracked');
    // only the new metric's rows: the step rows are gone, not mixed in
    expect(weight).toHaveLength(10);
    expect(weight[0]).toEqual({ date: '2023-03-01', kg: 82.4 });
    expect(weight.at(-1)).toEqual({ date: '2023-03-28', kg: 81.05 });
    expect(weight.every((row) => Object.keys(row).sort().join() === 'date,kg')).toBe(true);
    expect(changes(srv, 'tracked').at(-1)).toEqual({ actor: 'hae', op: 'hae-refill' });
    const setsAfterRefill = changes(srv, 'tracked').length;

    // an alias of the same metric: nothing to refill
    const alias = await srv.api('/api/manifests/tracked', {
      method: 'PATCH',
      json: { meta: { ingest: { metric: 'body_mass' } } },
    });
    expect(alias.status).toBe(200);
    expect(alias.body.changed).toBe(true);
    // an unknown metric is refused and changes nothing (a spelling with the same letters as a
    // catalogue key, weight_bodymass, names that metric: see metric-name-styles)
    const bad = await srv.api('/api/manifests/tracked', {
      method: 'PATCH',
      json: { meta: { ingest: { metric: 'weight_bdy_mass' } } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.details).toEqual([expect.objectContaining({ path: 'meta.ingest.metric' })]);
    // unsubscribing keeps the rows
    const off = await srv.api('/api/manifests/tracked', {
      method: 'PATCH',
      json: { meta: { ingest: null } },
    });
    expect(off.status).toBe(200);
    expect(await srv.rows('tracked')).toEqual(weight);
    expect(changes(srv, 'tracked')).toHaveLength(setsAfterRefill);

    // subscribing again to the metric the rows came from merges (nothing new to write)
    await srv.api('/api/manifests/tracked', {
      method: 'PATCH',
      json: { meta: { ingest: { source: 'hae', metric: 'weight_body_mass' } } },
    });
    expect(await srv.rows('tracked')).toEqual(weight);
    expect(changes(srv, 'tracked')).toHaveLength(setsAfterRefill);
    // and the next push still reaches it
    const next = await srv.push(
      JSON.stringify({
        data: {
          metrics: [
            { name: 'weight_body_mass', units: 'kg', data: [{ date: '2023-03-31 07:00:00 +1100', qty: 71 }] },
          ],
        },
      }),
    );
    expect(next.body.ingested).toEqual({ tracked: 1 });
    expect((await srv.rows('tracked')).at(-1)).toEqual({ date: '2023-03-31', kg: 71 });
  });

  it('a metric with no stored samples leaves the card with no rows of the old metric', async () => {
    srv = await startIngestServer();
    await srv.push(haeBytes(MAR2023));
    await srv.createCard(haeCard('c', 'step_count'));
    const r = await srv.api('/api/manifests/c', {
      method: 'PATCH',
      json: { meta: { ingest: { metric: 'blood_glucose' } } },
    });
    expect(r.status).toBe(200);
    expect(await srv.rows('c')).toEqual([]);
  });
});

describe('hand edits of the file (the watcher)', () => {
  it('adding meta.ingest to the file fills the card; changing the metric refills it; a new subscribed file is filled', async () => {
    srv = await startIngestServer({ watch: true });
    await srv.push(haeBytes(MAR2023));
    await srv.createCard(plainCard('walk'));
    const file = path.join(srv.dataDir, 'walk.json');
    const edit = (metric: string) => {
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
      manifest.meta.ingest = { source: 'hae', metric };
      fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
    };

    edit('step_count');
    const s = srv;
    const steps = await until(
      () => s.rows('walk'),
      (rows) => rows.length === 30,
    );
    expect(steps).toHaveLength(30);
    expect(steps[0]).toEqual({ date: '2023-03-01', count: 3000 });

    edit('weight_body_mass');
    const weight = await until(
      () => s.rows('walk'),
      (rows) => rows.length === 10,
    );
    expect(weight).toHaveLength(10);
    expect(weight[0]).toEqual({ date: '2023-03-01', kg: 82.4 });

    // a file dropped in by hand with a subscription and no data fills like a create
    fs.writeFileSync(
      path.join(srv.dataDir, 'dropped.json'),
      `${JSON.stringify(haeCard('dropped', 'step_count'), null, 2)}\n`,
    );
    const dropped = await until(
      async () => ((await s.api('/api/manifests/dropped/data')).body?.data ?? []) as unknown[],
      (rows) => rows.length === 30,
    );
    expect(dropped).toHaveLength(30);
  });
});
