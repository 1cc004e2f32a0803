/**
 * The write workload of the fault-injection suite and its checker. Every kind of write runs in
 * its own loop against one server (append, row patch, data replace, card create and delete,
 * card reorder, manifest patch, a Health Auto Export push, a dropped-in manifest with data to
 * import, a hand edit of a manifest), each on cards of its own so its outcome can be judged
 * alone. Each request is remembered as acknowledged (2xx), refused (an error answer) or unknown
 * (no answer: the server died with it in flight). `check` then reads the home back and counts
 * what was lost (acknowledged but missing, refused but present, twice) and what was half done
 * (a card without its rows, rows without a card, a manifest that is not valid JSON, a leftover).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { ChildServer } from '../helpers/child-server.js';
import { writeableCard } from '../helpers/child-server.js';

type Outcome = 'acked' | 'refused' | 'unknown';

/** Counts over one or more runs. */
export interface FaultCounts {
  tried: number;
  acked: number;
  refused: number;
  unknown: number;
  lost: number;
  halfDone: number;
  problems: string[];
}

export function emptyCounts(): FaultCounts {
  return { tried: 0, acked: 0, refused: 0, unknown: 0, lost: 0, halfDone: 0, problems: [] };
}

/** Adds `b` into `a`. */
export function addCounts(a: FaultCounts, b: FaultCounts): void {
  a.tried += b.tried;
  a.acked += b.acked;
  a.refused += b.refused;
  a.unknown += b.unknown;
  a.lost += b.lost;
  a.halfDone += b.halfDone;
  a.problems.push(...b.problems);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function outcomeOf(status: number): Outcome {
  if (status === 0) return 'unknown';
  return status >= 200 && status < 300 ? 'acked' : 'refused';
}

/** The fixed cards the loops write to. */
export const FIXED = ['f-append', 'f-patch', 'f-replace'];

/** Creates the fixed cards and the Health Auto Export token on a fresh home; returns the token. */
export async function prepareHome(server: ChildServer): Promise<string> {
  for (const id of FIXED) {
    const data = id === 'f-patch' ? [{ id: 'x', v: 0 }] : [];
    const r = await server.api('/api/manifests', { json: { ...writeableCard(id), data } });
    if (r.status !== 201) throw new Error(`creating ${id}: ${r.status} ${r.text}`);
  }
  const t = await server.api('/api/health-auto-export/token', { method: 'POST' });
  if (t.status !== 201) throw new Error(`HAE token: ${t.status} ${t.text}`);
  return t.body.token as string;
}

function haeTime(i: number): string {
  const d = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  return `${d.slice(0, 10)} ${d.slice(11, 19)} +0000`;
}

/** A running workload; `stop()` ends every loop and waits for them. */
export class Workload {
  private running = true;
  private loops: Promise<void>[] = [];
  readonly appends = new Map<number, Outcome>();
  readonly patches = new Map<number, Outcome>();
  readonly replaces = new Map<number, Outcome>();
  readonly creates = new Map<number, Outcome>();
  readonly deletes = new Map<number, Outcome>();
  readonly pushes = new Map<number, Outcome>();
  readonly imports = new Map<number, Outcome>();
  readonly other = { tried: 0, acked: 0, refused: 0, unknown: 0 };
  /** Highest hand edit saved to the f-patch manifest (editor-style: temp file, rename). */
  handSaved = 0;

  constructor(
    private readonly server: ChildServer,
    private readonly dataDir: string,
    private readonly haeToken: string,
    /** Offsets keep numbers unique across runs on one home. */
    private readonly base: number,
  ) {}

  start(): this {
    const s = this.server;
    const loop = (fn: (i: number) => Promise<void>) =>
      this.loops.push(
        (async () => {
          for (let i = this.base; this.running; i++) await fn(i);
        })(),
      );
    const call = async (p: string, init: Parameters<ChildServer['api']>[1]): Promise<number> => {
      try {
        const r = await s.api(p, init);
        // the webhook answers 200 {ok: false, warning} for a push it could not store
        return r.status === 200 && r.body?.ok === false ? 422 : r.status;
      } catch {
        return 0;
      }
    };
    const track = async (
      map: Map<number, Outcome>,
      i: number,
      p: string,
      init: Parameters<ChildServer['api']>[1],
    ) => {
      map.set(i, 'unknown');
      const status = await call(p, init);
      map.set(i, outcomeOf(status));
      if (status === 0) await sleep(20);
    };
    loop((i) => track(this.appends, i, '/api/manifests/f-append/rows', { json: { value: { seq: i } } }));
    loop((i) =>
      track(this.patches, i, '/api/manifests/f-patch/rows', {
        method: 'PATCH',
        json: { path: '[id="x"]', changes: { v: i } },
      }),
    );
    loop((i) =>
      track(this.replaces, i, '/api/manifests/f-replace/data', { json: { data: [{ seq: i }, { seq: i }] } }),
    );
    loop(async (i) => {
      await track(this.creates, i, '/api/manifests', {
        json: { ...writeableCard(`f-c${i}`), data: [{ n: i }, { n: i }] },
      });
      if (i % 2 === 1 && this.creates.get(i) === 'acked')
        await track(this.deletes, i, `/api/manifests/f-c${i}`, { method: 'DELETE' });
    });
    loop(async (i) => {
      const push = JSON.stringify({
        data: {
          metrics: [{ name: 'step_count', units: 'count', data: [{ date: haeTime(i), qty: 100_000 + i }] }],
        },
      });
      await track(this.pushes, i, '/api/health-auto-export', {
        token: this.haeToken,
        body: push,
        headers: { 'content-type': 'application/json' },
      });
    });
    loop(async (i) => {
      const order = [...FIXED].sort(() => Math.random() - 0.5);
      const status = await call('/api/manifests/reorder', { json: { order } });
      this.count(status);
      const label = await call('/api/manifests/f-replace', {
        method: 'PATCH',
        json: { meta: { label: `Replace ${i}` } },
      });
      this.count(label);
      if (status === 0 || label === 0) await sleep(20);
    });
    // a dropped-in manifest carrying data (imported by the server) and a hand edit, by "a person"
    loop(async (i) => {
      const file = path.join(this.dataDir, `f-imp${i}.json`);
      const tmp = path.join(this.dataDir, `.hand-${i}.partial`);
      try {
        fs.writeFileSync(tmp, JSON.stringify({ ...writeableCard(`f-imp${i}`), data: [{ n: i }] }));
        fs.renameSync(tmp, file);
        this.imports.set(i, 'acked');
        this.handEdit();
      } catch {
        // the person's own save failed (the disk is full): nothing of it is on disk
        fs.rmSync(tmp, { force: true });
      }
      await sleep(15 + Math.random() * 30);
    });
    return this;
  }

  private count(status: number): void {
    this.other.tried++;
    this.other[outcomeOf(status)]++;
  }

  /** An editor's save of f-patch's manifest: meta.handSeq one higher, temp file renamed over. */
  private handEdit(): void {
    const file = path.join(this.dataDir, 'f-patch.json');
    let current: { meta: Record<string, unknown> };
    try {
      current = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      return;
    }
    const next = { ...current, meta: { ...current.meta, handSeq: this.handSaved + 1 } };
    const tmp = path.join(this.dataDir, '.editor-save.partial');
    try {
      fs.writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`);
      fs.renameSync(tmp, file);
      this.handSaved++;
    } catch {
      fs.rmSync(tmp, { force: true });
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}

interface Judged {
  counts: FaultCounts;
}

function tally(maps: Map<number, Outcome>[], other: Workload['other']): FaultCounts {
  const c = emptyCounts();
  for (const m of maps)
    for (const o of m.values()) {
      c.tried++;
      c[o]++;
    }
  c.tried += other.tried;
  c.acked += other.acked;
  c.refused += other.refused;
  c.unknown += other.unknown;
  return c;
}

/**
 * Judges the home after the run (the server is stopped; `server` is a fresh one on the same
 * home that has read it back). Appends: every acknowledged one exactly once, no refused one.
 * Patch and replace: the value is the last acknowledged one or a later one that was sent.
 * Creates and deletes: an acknowledged card is there with both rows, a deleted one is gone
 * entirely, an unknown one is either. Pushes: every acknowledged sample once. Imports: every
 * dropped file's card there with its row once. Hand edits: the last one saved is on disk.
 * Always: integrity_check ok, every manifest valid JSON, no card without rows, no rows without a
 * card, no leftover dot-files.
 */
export async function check(w: Workload, server: ChildServer, home: string): Promise<Judged> {
  const counts = tally(
    [w.appends, w.patches, w.replaces, w.creates, w.deletes, w.pushes, w.imports],
    w.other,
  );
  const lose = (what: string) => {
    counts.lost++;
    counts.problems.push(`lost: ${what}`);
  };
  const half = (what: string) => {
    counts.halfDone++;
    counts.problems.push(`half-done: ${what}`);
  };
  const data = async (id: string) => {
    const r = await server.api(`/api/manifests/${id}/data`);
    return r.status === 200 ? (r.body.data as Record<string, number>[]) : undefined;
  };

  const appended = (await data('f-append')) ?? [];
  const seqs = appended.map((r) => r.seq);
  for (const [i, o] of w.appends) {
    const n = seqs.filter((x) => x === i).length;
    if (o === 'acked' && n !== 1) lose(`append ${i} acknowledged, found ${n} times`);
    if (o === 'refused' && n !== 0) lose(`append ${i} refused, found ${n} times`);
    if (o === 'unknown' && n > 1) lose(`append ${i} found ${n} times`);
  }
  if (seqs.some((x) => !w.appends.has(x))) lose('an append that was never sent');

  const lastAcked = (m: Map<number, Outcome>) =>
    Math.max(-1, ...[...m].filter(([, o]) => o === 'acked').map(([i]) => i));
  const patched = ((await data('f-patch')) ?? [])[0]?.v;
  const pa = lastAcked(w.patches);
  if (pa >= 0 && !(patched >= pa && w.patches.get(patched) !== 'refused' && w.patches.has(patched)))
    lose(`row patch: v is ${patched}, last acknowledged ${pa}`);
  const replaced = (await data('f-replace')) ?? [];
  const ra = lastAcked(w.replaces);
  if (replaced.length !== 0 && (replaced.length !== 2 || replaced[0].seq !== replaced[1].seq))
    half(`data replace left ${JSON.stringify(replaced)}`);
  if (ra >= 0 && !(replaced[0]?.seq >= ra && w.replaces.get(replaced[0].seq) !== 'refused'))
    lose(`data replace: seq ${replaced[0]?.seq}, last acknowledged ${ra}`);

  for (const [i, o] of w.creates) {
    const d = await data(`f-c${i}`);
    const del = w.deletes.get(i);
    const shouldExist = o === 'acked' && (del === undefined || del === 'refused');
    const mustBeGone = o === 'refused' || del === 'acked';
    if (d !== undefined && (d.length !== 2 || d[0].n !== i))
      half(`card f-c${i} with rows ${JSON.stringify(d)}`);
    if (shouldExist && d === undefined) lose(`card f-c${i} acknowledged, missing`);
    if (mustBeGone && d !== undefined) lose(`card f-c${i} refused or deleted, present`);
  }

  for (const [i] of w.imports) {
    const d = await data(`f-imp${i}`);
    if (d === undefined || d.length !== 1 || d[0].n !== i) lose(`dropped-in f-imp${i}: ${JSON.stringify(d)}`);
  }

  const manifest = JSON.parse(fs.readFileSync(path.join(home, 'data/f-patch.json'), 'utf8'));
  if ((manifest.meta.handSeq ?? 0) < w.handSaved)
    lose(`hand edit ${w.handSaved} overwritten (${manifest.meta.handSeq})`);

  const list = (await server.api('/api/manifests')).body;
  const loaded = new Set((list.entries as { id: string }[]).map((e) => e.id));
  for (const e of list.errors as { file: string; code: string }[])
    if (e.file.startsWith('f-')) half(`load error ${e.file} ${e.code}`);
  const dataDir = path.join(home, 'data');
  const onDisk = new Set<string>();
  for (const name of fs.readdirSync(dataDir)) {
    if (name.startsWith('.')) {
      half(`leftover ${name}`);
      continue;
    }
    if (!name.endsWith('.json') || /\.json\.[^/]+\.json$/.test(name)) continue;
    try {
      onDisk.add(JSON.parse(fs.readFileSync(path.join(dataDir, name), 'utf8')).meta.id);
    } catch {
      half(`${name} is not valid JSON`);
    }
  }
  for (const id of onDisk) if (!loaded.has(id)) half(`${id}.json on disk, not loaded`);

  const stopped = await server.stop();
  if (stopped.forced) counts.problems.push('the checking server did not stop on SIGTERM');
  const db = new Database(path.join(home, 'db/klebb.sqlite'), { readonly: true });
  try {
    if (db.pragma('integrity_check', { simple: true }) !== 'ok') half('integrity_check failed');
    const states = db.prepare("SELECT card_id, row_count FROM card_state WHERE shape <> 'none'").all() as {
      card_id: string;
      row_count: number;
    }[];
    for (const s of states)
      if (s.card_id.startsWith('f-') && !onDisk.has(s.card_id)) half(`rows of ${s.card_id} without a card`);
    const withRows = new Set(states.map((s) => s.card_id));
    for (const id of onDisk)
      if (id.startsWith('f-') && !withRows.has(id)) half(`card ${id} without its rows`);
    const counted = db.prepare('SELECT card_id, count(*) AS n FROM card_rows GROUP BY card_id').all() as {
      card_id: string;
      n: number;
    }[];
    const byId = new Map(counted.map((r) => [r.card_id, r.n]));
    for (const s of states)
      if ((byId.get(s.card_id) ?? 0) !== s.row_count && s.card_id.startsWith('f-'))
        half(`row count of ${s.card_id}`);
    const samples = db
      .prepare("SELECT vals FROM hae_samples WHERE metric = 'step_count'")
      .pluck()
      .all() as string[];
    for (const [i, o] of w.pushes) {
      const n = samples.filter((v) => v.includes(String(100_000 + i))).length;
      if (o === 'acked' && n !== 1) lose(`HAE push ${i} acknowledged, ${n} samples`);
      if (o === 'refused' && n !== 0) lose(`HAE push ${i} refused, ${n} samples`);
    }
  } finally {
    db.close();
  }
  return { counts };
}
