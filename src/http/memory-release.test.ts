import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  MEMORY_RELEASE_IDLE_MS,
  MEMORY_RELEASE_MAX_WAIT_MS,
  MEMORY_RELEASE_MIN_BODY_BYTES,
} from '../limits.js';
import type { Db } from '../store/database.js';
import { releaseMemoryAfterLargeRequests } from './memory-release.js';
import { buildValidator } from './validation.js';

/** An app with the release installed over a stand-in database that counts `shrink_memory`. */
async function appWithRelease() {
  const pragmas: string[] = [];
  const db = { open: true, pragma: (p: string) => pragmas.push(p) } as unknown as Db;
  const app = Fastify();
  releaseMemoryAfterLargeRequests(app, [db]);
  app.post('/', async () => ({ ok: true }));
  app.get('/', async () => ({ ok: true }));
  await app.ready();
  return { app, pragmas };
}

describe('memory release', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs once after start-up when no request comes in, put off by requests while due', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { app, pragmas } = await appWithRelease();
    vi.advanceTimersByTime(MEMORY_RELEASE_IDLE_MS - 1_000);
    expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
    vi.advanceTimersByTime(MEMORY_RELEASE_IDLE_MS - 1_000);
    expect(pragmas, 'a request answered while due puts the release off').toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(pragmas).toEqual(['shrink_memory']);
    // small requests afterwards do not schedule another
    expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
    vi.advanceTimersByTime(MEMORY_RELEASE_MAX_WAIT_MS);
    expect(pragmas).toEqual(['shrink_memory']);
    await app.close();
  });

  it('runs again after a large body, and requests without pause cannot hold it off for good', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { app, pragmas } = await appWithRelease();
    vi.advanceTimersByTime(MEMORY_RELEASE_IDLE_MS);
    expect(pragmas).toHaveLength(1);
    const body = JSON.stringify({ pad: 'x'.repeat(MEMORY_RELEASE_MIN_BODY_BYTES) });
    const res = await app.inject({
      method: 'POST',
      url: '/',
      payload: body,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(200);
    for (let t = 0; t < MEMORY_RELEASE_MAX_WAIT_MS + 2 * MEMORY_RELEASE_IDLE_MS; t += 1_000) {
      await app.inject({ method: 'GET', url: '/' });
      vi.advanceTimersByTime(1_000);
    }
    expect(pragmas).toHaveLength(2);
    await app.close();
  });
  it('runs again after a request that compiled its route check, not after later ones', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const pragmas: string[] = [];
    const db = { open: true, pragma: (p: string) => pragmas.push(p) } as unknown as Db;
    const app = Fastify({ schemaController: { compilersFactory: { buildValidator } } });
    releaseMemoryAfterLargeRequests(app, [db]);
    const schema = { querystring: { type: 'object', properties: { n: { type: 'integer' } } } };
    app.get('/checked', { schema }, async () => ({ ok: true }));
    await app.ready();
    vi.advanceTimersByTime(MEMORY_RELEASE_IDLE_MS);
    expect(pragmas).toHaveLength(1);
    expect((await app.inject({ method: 'GET', url: '/checked?n=1' })).statusCode).toBe(200);
    vi.advanceTimersByTime(MEMORY_RELEASE_IDLE_MS);
    expect(pragmas, 'the first request compiled the check').toHaveLength(2);
    expect((await app.inject({ method: 'GET', url: '/checked?n=2' })).statusCode).toBe(200);
    vi.advanceTimersByTime(MEMORY_RELEASE_MAX_WAIT_MS);
    expect(pragmas, 'the check was compiled already').toHaveLength(2);
    await app.close();
  });
});
