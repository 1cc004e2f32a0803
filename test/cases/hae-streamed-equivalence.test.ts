/**
 * The streamed path (bodies over HAE_INLINE_MAX_BYTES, walked point by point with stream-json)
 * stores exactly the samples the whole-body path stores, in the same order, for every real
 * payload of the cases folder: with tiny chunks (so `seq` and the daily `span` are decided across chunk boundaries),
 * and with every metric block's keys reordered so its points arrive before its name and units
 * (iOS writes keys in random order; the points then wait, and spill to disk past a bound).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ingestInline, ingestSpooled } from '../../src/ingest/hae/webhook/ingest-body.js';
import { type Instance, openInstance } from '../../src/instance.js';
import { sandboxHome } from '../helpers/sandbox-home.js';
import { HAE_FILES, haeBytes } from './hae-files.js';

const open: { inst: Instance; remove(): void }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.inst.close();
    o.remove();
  }
});

async function instance(): Promise<Instance> {
  const box = sandboxHome();
  const inst = await openInstance(loadConfig({ HEALTH_HOME: box.home, KLEBB_LOG_LEVEL: 'silent' }), {
    watch: false,
  });
  open.push({ inst, remove: box.remove });
  return inst;
}

/** Every stored sample, in arrival order, as comparable text. */
function stored(inst: Instance): string[] {
  return (
    inst.db
      .prepare('SELECT hex(dedup_key) k, metric, date, span, vals FROM hae_samples ORDER BY id')
      .all() as Record<string, string>[]
  ).map((r) => `${r.k} ${r.metric} ${r.date} ${r.span} ${r.vals}`);
}

/** The body with each metric block's keys in the order data, units, name (then the rest). */
function pointsFirst(bytes: Buffer): Buffer {
  const root = JSON.parse(bytes.toString('utf8')) as { data?: { metrics?: unknown[] }; metrics?: unknown[] };
  const sections = (root.data ?? root) as { metrics?: Record<string, unknown>[] };
  if (Array.isArray(sections.metrics)) {
    sections.metrics = sections.metrics.map((b) => {
      const { data, units, name, ...rest } = b;
      return { data, units, name, ...rest };
    });
  }
  return Buffer.from(JSON.stringify(root));
}

async function streamed(
  inst: Instance,
  bytes: Buffer,
  opts: { chunkPoints: number; pendingInMemory: number },
) {
  const file = path.join(inst.hae.dirs.incoming, 'body.json');
  fs.writeFileSync(file, bytes);
  return ingestSpooled(inst.hae, file, bytes.length, opts);
}

describe.each(HAE_FILES)('%s', (file) => {
  it('streamed in chunks of 7 points stores what the whole body stores', async () => {
    const bytes = haeBytes(file);
    const whole = await instance();
    const a = ingestInline(whole.hae, bytes);
    const parts = await instance();
    const b = await streamed(parts, bytes, { chunkPoints: 7, pendingInMemory: 1000 });
    expect(b.ok).toBe(true);
    expect(b.samples).toEqual(a.samples);
    expect(stored(parts)).toEqual(stored(whole));
  });

  it('with points before name and units (held, then spilled to disk) it still does', async () => {
    const bytes = pointsFirst(haeBytes(file));
    const whole = await instance();
    ingestInline(whole.hae, bytes);
    const parts = await instance();
    const b = await streamed(parts, bytes, { chunkPoints: 50, pendingInMemory: 10 });
    expect(b.ok).toBe(true);
    expect(stored(parts)).toEqual(stored(whole));
    expect(fs.readdirSync(parts.hae.dirs.incoming)).toEqual([]);
  });
});

it('a block of daily points stays daily across chunks; a repeated (date, source) makes the whole block sub-daily', async () => {
  const day = (d: number) => `2025-01-${String(d).padStart(2, '0')} 00:00:00 +0000`;
  const daily = {
    name: 'step_count',
    units: 'count',
    data: Array.from({ length: 20 }, (_, i) => ({ date: day(i + 1), qty: 100 + i })),
  };
  const repeated = {
    ...daily,
    name: 'active_energy',
    units: 'kcal',
    data: [...daily.data, { date: day(20), qty: 5 }],
  };
  const bytes = Buffer.from(JSON.stringify({ data: { metrics: [daily, repeated] } }));
  const whole = await instance();
  ingestInline(whole.hae, bytes);
  const parts = await instance();
  await streamed(parts, bytes, { chunkPoints: 3, pendingInMemory: 100 });
  expect(stored(parts)).toEqual(stored(whole));
  const spans = parts.db
    .prepare('SELECT metric, span, count(*) n FROM hae_samples GROUP BY metric, span ORDER BY metric')
    .all();
  expect(spans).toEqual([
    { metric: 'active_energy', span: 'sample', n: 21 },
    { metric: 'step_count', span: 'day', n: 20 },
  ]);
});

it('identical points (same timestamp, source and value) are numbered (seq) across chunks as in the whole block', async () => {
  // five foods logged in the same minute by one app, and one by another app at that minute
  const at = '2025-01-05 12:30:00 +0100';
  const data = [
    ...[10, 20, 10, 30, 40].map((qty) => ({ date: at, qty, source: 'MyNetDiary' })),
    { date: at, qty: 10, source: 'MacroFactor' },
    { date: '2025-01-05 12:31:00 +0100', qty: 5, source: 'MyNetDiary' },
  ];
  const bytes = Buffer.from(JSON.stringify({ metrics: [{ name: 'protein', units: 'g', data }] }));
  const whole = await instance();
  ingestInline(whole.hae, bytes);
  const parts = await instance();
  await streamed(parts, bytes, { chunkPoints: 2, pendingInMemory: 100 });
  expect(stored(parts)).toEqual(stored(whole));
  const seqs = parts.db
    .prepare("SELECT json_extract(vals, '$.seq') FROM hae_samples ORDER BY id")
    .pluck()
    .all();
  // only the second identical copy (10 g at 12:30 from MyNetDiary) is numbered; other values tell themselves apart
  expect(seqs).toEqual([null, null, 1, null, null, null, null]);
});
