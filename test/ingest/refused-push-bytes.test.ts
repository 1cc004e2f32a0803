/**
 * `payloadBytes` of `lastFailedAttempt` is null, as documented, for a push whose body was never
 * read: refused on its Content-Length, on a Content-Encoding the server does not know (415), or
 * on one whose bytes do not decode (400); it was 0.
 */
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('payloadBytes of a refused push', () => {
  it('is null when the body was never read', async () => {
    const s = await startIngestServer({
      cards: [['steps', 'step_count']],
      env: { KLEBB_HAE_MAX_BYTES: '2000' },
    });
    srv = s;
    const push = (body: string | Buffer, headers: Record<string, string>) =>
      s.api('/api/health-auto-export', {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', ...headers },
        token: s.haeToken,
      });
    const cases: [string, () => Promise<{ status: number }>, number][] = [
      ['Content-Length over the limit', () => push(`{"pad":"${'x'.repeat(3000)}"}`, {}), 413],
      ['an unknown Content-Encoding', () => push('{}', { 'content-encoding': 'compress' }), 415],
      [
        'a damaged gzip',
        () => push(zlib.gzipSync('{"data":{"metrics":[]}}').subarray(0, 12), { 'content-encoding': 'gzip' }),
        400,
      ],
    ];
    for (const [name, send, want] of cases) {
      const r = await send();
      expect(r.status, name).toBe(want);
      const failed = (await s.api('/api/health-auto-export/status')).body.lastFailedAttempt;
      expect(failed, name).toMatchObject({ status: want, payloadBytes: null });
    }
  });
});
