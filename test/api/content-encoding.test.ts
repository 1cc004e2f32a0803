/**
 * Request bodies sent compressed (`Content-Encoding: gzip`, `deflate`, `br`) are decoded on every
 * route that reads a body, the JSON routes and the raw-body ones (Health Auto Export); the body
 * limits count the decoded bytes, so a small compressed body that inflates past the limit is 413
 * with nothing stored; bytes that do not decode are 400 naming the encoding; an encoding the
 * server does not decode is 415 UNSUPPORTED_ENCODING naming Content-Encoding.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from '../ingest/helpers.js';

let s: IngestServer;
const HAE_LIMIT = 2_000_000;

beforeAll(async () => {
  s = await startIngestServer({
    cards: [['steps', 'step_count']],
    env: { KLEBB_BODY_LIMIT_BYTES: '100000', KLEBB_HAE_MAX_BYTES: String(HAE_LIMIT) },
  });
});
afterAll(async () => {
  await s?.close();
});

const ENCODERS: Record<string, (b: Buffer) => Buffer> = {
  gzip: (b) => zlib.gzipSync(b),
  deflate: (b) => zlib.deflateSync(b),
  br: (b) => zlib.brotliCompressSync(b),
};

const card = (id: string) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: `Card ${id}`, writeable: { fromWebapp: true } },
  data: [],
});

const postJson = (path: string, body: Buffer, encoding: string, token?: string) =>
  s.api(path, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'content-encoding': encoding },
    token,
  });

const steps = (n: number) =>
  JSON.stringify({
    data: {
      metrics: [
        {
          name: 'step_count',
          units: 'count',
          data: Array.from({ length: n }, (_, i) => ({
            date: `2025-01-${String((i % 28) + 1).padStart(2, '0')} ${String(i % 24).padStart(2, '0')}:00:00 +0000`,
            qty: i + 1,
          })),
        },
      ],
    },
  });

/** A body of `bytes` JSON that compresses to almost nothing: `{"x":"   …"}`. */
const bomb = (bytes: number) =>
  Buffer.concat([Buffer.from('{"x":"'), Buffer.alloc(bytes, 0x20), Buffer.from('"}')]);

describe('compressed request bodies', () => {
  it('a JSON route reads a gzip, deflate or br body as if it was sent plain', async () => {
    for (const [name, encode] of Object.entries(ENCODERS)) {
      const r = await postJson(
        '/api/manifests',
        encode(Buffer.from(JSON.stringify(card(`c-${name}`)))),
        name,
      );
      expect(r.status, `${name}: ${r.text}`).toBe(201);
    }
    for (const name of Object.keys(ENCODERS)) {
      const r = await s.api(`/api/manifests/c-${name}`);
      expect(r.status, name).toBe(200);
      expect(r.body.meta.label).toBe(`Card c-${name}`);
    }
  });

  it('a gzip Health Auto Export push is ingested, not quarantined', async () => {
    const r = await postJson('/api/health-auto-export', zlib.gzipSync(steps(3)), 'gzip', s.haeToken);
    expect(r.status, r.text).toBe(200);
    expect(r.body.ok, r.text).toBe(true);
    expect(r.body.ingested).toEqual({ steps: 3 });
    expect(await s.rows('steps')).toHaveLength(3);
    expect(fs.readdirSync(s.inst.hae.dirs.quarantine)).toEqual([]);
  });

  it('a body that inflates past the limit is 413 and nothing is stored (JSON route and webhook)', async () => {
    const json = await postJson('/api/manifests', zlib.gzipSync(bomb(50_000_000)), 'gzip');
    expect(json.status, json.text).toBe(413);
    expect(json.body.code).toBe('PAYLOAD_TOO_LARGE');
    const before = await s.rows('steps');
    const hae = await postJson(
      '/api/health-auto-export',
      zlib.gzipSync(bomb(200_000_000)),
      'gzip',
      s.haeToken,
    );
    expect(hae.status, hae.text).toBe(413);
    expect(hae.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await s.rows('steps')).toEqual(before);
    expect(fs.readdirSync(s.inst.hae.dirs.quarantine)).toEqual([]);
    expect(fs.readdirSync(s.inst.hae.dirs.incoming)).toEqual([]);
    // the server still answers on a fresh request
    expect((await s.api('/api/manifests')).status).toBe(200);
  });

  it('a body that is not valid gzip is 400 naming the encoding (JSON route and webhook)', async () => {
    const broken = Buffer.from('{"not":"gzip at all"}');
    for (const path of ['/api/manifests', '/api/health-auto-export']) {
      const r = await postJson(path, broken, 'gzip', path.includes('health') ? s.haeToken : undefined);
      expect(r.status, `${path}: ${r.text}`).toBe(400);
      expect(r.body.code).toBe('BAD_CONTENT_ENCODING');
      expect(r.body.error).toMatch(/gzip/);
    }
    // a gzip stream cut short is refused too
    const cut = zlib.gzipSync(Buffer.from(steps(50)));
    const r = await postJson('/api/health-auto-export', cut.subarray(0, cut.length - 20), 'gzip', s.haeToken);
    expect(r.status, r.text).toBe(400);
    expect(r.body.code).toBe('BAD_CONTENT_ENCODING');
    expect(fs.readdirSync(s.inst.hae.dirs.quarantine)).toEqual([]);
  });

  it('an encoding the server does not decode is 415 UNSUPPORTED_ENCODING naming Content-Encoding', async () => {
    for (const path of ['/api/manifests', '/api/health-auto-export']) {
      // names of Object's own members are codings like any other unknown one
      for (const enc of ['compress', 'zstd', 'gzip, gzip', 'constructor', '__proto__', 'toString']) {
        const r = await postJson(
          path,
          Buffer.from('{}'),
          enc,
          path.includes('health') ? s.haeToken : undefined,
        );
        expect(r.status, `${path} ${enc}: ${r.text}`).toBe(415);
        expect(r.body.code).toBe('UNSUPPORTED_ENCODING');
        expect(r.body.error).toMatch(/Content-Encoding/);
      }
    }
    // the phone's token is checked first: a stranger learns nothing about the body's reading
    const stranger = await postJson('/api/health-auto-export', Buffer.from('{}'), 'zstd', 'not-the-token');
    expect(stranger.status, stranger.text).toBe(401);
    // identity is no encoding at all
    const plain = await postJson('/api/manifests', Buffer.from(JSON.stringify(card('plain'))), 'identity');
    expect(plain.status, plain.text).toBe(201);
  });
});
