/**
 * A big Health Auto Export push whose points come before the metric's name (so they are held in
 * a spill file until the name arrives) on a disk that fills up while that file is written. The
 * push is answered 507 DISK_FULL, nothing of it is kept (no samples, no spool or spill file),
 * and the server keeps running; before, the spill file's write error was an unhandled 'error'
 * event that ended the whole server. Once there is room, the same push goes through.
 * Real server, a real small tmpfs mounted on the ingest folder (the tests run as root in CI).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { HAE_INLINE_MAX_BYTES } from '../../src/ingest/hae/env.js';
import { canMountTmpfs, mountTmpfs, unmountAll } from '../helpers/small-disk.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  unmountAll();
  await srv?.close();
  srv = undefined;
});

/** 70 000 step counts whose `data` comes before the metric's `name` and `units`. */
function dataBeforeName(): string {
  const points = Array.from({ length: 70_000 }, (_, i) => ({
    date: `2025-02-${String(1 + (i % 28)).padStart(2, '0')} ${String(i % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:${String(Math.floor(i / 1440) % 60).padStart(2, '0')} +0100`,
    qty: (i % 100) + 1,
    source: 'Watch',
  }));
  return `{"data":{"metrics":[{"data":${JSON.stringify(points)},"name":"step_count","units":"count"}]}}`;
}

it.runIf(canMountTmpfs())(
  'a push whose held points fill the disk is 507 DISK_FULL, keeps nothing, and the server lives on',
  async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const s = srv;
    const body = dataBeforeName();
    // the streamed path (spooled to disk), where big bodies go
    expect(Buffer.byteLength(body)).toBeGreaterThan(HAE_INLINE_MAX_BYTES);
    const incoming = path.join(s.home, 'ingest', 'incoming');
    fs.mkdirSync(incoming, { recursive: true });
    // room for the body's spool file, not for the spill file of its held points as well
    const room = Math.ceil((Buffer.byteLength(body) + 200 * 1024) / 4096) * 4096;
    const unmount = mountTmpfs(incoming, { size: room });

    const r = await s.push(body);
    expect(r.status, r.text).toBe(507);
    expect(r.body.code).toBe('DISK_FULL');
    expect((await s.api('/healthz')).status).toBe(200);
    expect(s.inst.hae.samples.lastId()).toBe(0);
    expect(await s.rows('steps')).toEqual([]);
    expect(fs.readdirSync(incoming)).toEqual([]);

    unmount();
    const again = await s.push(body);
    expect(again.status, again.text).toBe(200);
    expect(again.body.samples.new).toBe(70_000);
  },
);
