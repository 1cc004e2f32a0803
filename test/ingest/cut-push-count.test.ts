/**
 * A large push (streamed, over 4 MB) whose JSON breaks off inside its only metric block keeps the
 * points read before the break, and its warning says how many: the same count as
 * `samples.received`, and that the block was cut short, not "0 complete metric blocks".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HAE_INLINE_MAX_BYTES } from '../../src/ingest/hae/env.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** Minute heart-rate points from 2025-01-01, `n` of them, as HAE writes them. */
function heartRatePoints(n: number): string {
  const out: string[] = [];
  const start = Date.UTC(2025, 0, 1);
  for (let i = 0; i < n; i++) {
    const d = new Date(start + i * 60_000).toISOString();
    const date = `${d.slice(0, 10)} ${d.slice(11, 19)} +0000`;
    out.push(`{"date":"${date}","Min":${60 + (i % 30)},"Avg":${70 + (i % 30)},"Max":${80 + (i % 30)}}`);
  }
  return out.join(',');
}

describe('a streamed push cut short inside a metric block', () => {
  it('says how many samples it kept, the same number it reports and stores', async () => {
    srv = await startIngestServer({ cards: [['hr', 'heart_rate']] });
    const full = `{"data":{"metrics":[{"name":"heart_rate","units":"count/min","data":[${heartRatePoints(150_000)}]}]}}`;

    // cut in the middle of a point, as a push that stopped arriving would be
    const cut = full.slice(0, Math.floor(full.length * 0.7) + 7);
    expect(cut.length).toBeGreaterThan(HAE_INLINE_MAX_BYTES);
    const r = await srv.push(cut);
    expect(r.status, r.text).toBe(200);
    expect(r.body.ok).toBe(false);
    const received = r.body.samples?.received as number;
    expect(r.body.samples, r.text.slice(0, 600)).toBeDefined();
    expect(received).toBeGreaterThan(1000);
    expect(r.body.warning).toContain(
      `what was read before the error was ingested: ${received} sample(s) from 0 whole metric block(s) and the block cut short by the error, up to the break;`,
    );
    expect(r.body.warning).not.toMatch(/complete metric block/);
    expect(Object.keys(r.body.ingested)).toEqual(['hr']);
    const status = await srv.api('/api/health-auto-export/status');
    expect(JSON.stringify(status.body.lastPush)).toContain(String(received));
  });
});
