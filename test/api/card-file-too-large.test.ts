/**
 * A card file made huge by mistake (a disk image, a log or a recording saved under the card's
 * .json name, 100 MB) is reported FILE_TOO_LARGE without being read into memory, at start-up and
 * while the server runs; the card it replaced keeps its rows, and a write to its manifest is 409.
 * Before, every such file was read whole (and a large one parsed by a worker) only to fail.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CardEvent } from '../../src/cards/card-loader.js';
import { MAX_CARD_FILE_BYTES } from '../../src/limits.js';
import { startServer, type TestServer } from '../helpers/server.js';

const cardText = `${JSON.stringify({
  $schema: 'klebb.datafile.v1',
  meta: { id: 'weight', label: 'Weight', writeable: { fromWebapp: true } },
})}\n`;
const HUGE = 100 * 1024 * 1024;

/** Makes `file` HUGE bytes long without writing them (a sparse file: a manifest's start, then zeros). */
function hugeFile(file: string): void {
  fs.writeFileSync(
    file,
    '{"$schema":"klebb.datafile.v1","meta":{"id":"weight","label":"Weight"},"description":"',
  );
  fs.truncateSync(file, HUGE);
}

let s: TestServer | undefined;
afterEach(async () => s?.close());

function tooLarge(errors: { code: string; file: string; message: string }[]) {
  const e = errors.find((x) => x.code === 'FILE_TOO_LARGE');
  expect(e, JSON.stringify(errors)).toBeDefined();
  expect(e?.file).toBe('weight.json');
  expect(e?.message).toContain('100 MB');
}

describe('a card file of 100 MB', () => {
  it('while the server runs: reported, not read; the card keeps its rows', { timeout: 30_000 }, async () => {
    expect(HUGE).toBeGreaterThan(MAX_CARD_FILE_BYTES);
    s = await startServer({
      before: (_h, dataDir) => {
        fs.mkdirSync(dataDir, { recursive: true });
        fs.writeFileSync(path.join(dataDir, 'weight.json'), cardText);
      },
    });
    const srv = s;
    expect(
      (await srv.api('/api/manifests/weight/data', { json: { data: [{ date: '2026-04-01', kg: 80 }] } }))
        .status,
    ).toBe(200);
    const reported = new Promise<void>((resolve) => {
      const on = (e: CardEvent) => {
        if (e.type === 'file-error' && e.file === 'weight.json') {
          srv.inst.events.off('card', on);
          resolve();
        }
      };
      srv.inst.events.on('card', on);
    });
    hugeFile(path.join(srv.dataDir, 'weight.json'));
    await reported;
    const list = (await srv.api('/api/manifests')).body;
    tooLarge(list.errors);
    expect(list.entries.map((e: { id: string }) => e.id)).toContain('weight');
    expect((await srv.api('/api/manifests/weight')).body.data).toEqual([{ date: '2026-04-01', kg: 80 }]);
    const patch = await srv.api('/api/manifests/weight', {
      method: 'PATCH',
      json: { meta: { label: 'Kg' } },
    });
    expect(patch.status, patch.text).toBe(409);
    expect(fs.statSync(path.join(srv.dataDir, 'weight.json')).size).toBe(HUGE);
  });

  it('at start-up: reported, not read', async () => {
    s = await startServer({
      before: (_h, dataDir) => {
        fs.mkdirSync(dataDir, { recursive: true });
        hugeFile(path.join(dataDir, 'weight.json'));
      },
    });
    tooLarge((await s.api('/api/manifests')).body.errors);
  });
});
