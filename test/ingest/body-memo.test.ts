/**
 * A webhook body sent again byte for byte is answered from its memo without being parsed: the
 * answer and the push summary must be exactly those of a re-send read block by block (the same
 * payload spelled with other bytes), warnings beyond the cap included; a body that did not parse
 * never gets a memo; and samples removed since (memos emptied) are stored again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FAMILY_CARDS, HAE_FILES, haeBytes, type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** The same payload in other bytes (compact, not pretty-printed): its blocks' memos match, the body's does not. */
function respelled(bytes: Buffer): Buffer {
  return Buffer.from(JSON.stringify(JSON.parse(bytes.toString('utf8'))));
}

/** The push summary without what differs between two posts (when, and the body size). */
function lastPushOf(s: IngestServer): Record<string, unknown> {
  const p = s.inst.hae.lastPush() as unknown as Record<string, unknown>;
  const { receivedAt: _r, payloadBytes: _b, ...rest } = p;
  return rest;
}

/** A body with more warning lines than the answer keeps, unknown sections and a point that is not an object. */
function noisyBody(): Buffer {
  const metrics = Array.from({ length: 60 }, (_, i) => ({
    name: `odd_metric_${i}`,
    units: 'count',
    data: [{ date: 'not a date', qty: 1 }, { date: '2024-03-01 00:00:00 +0000', qty: i }, 7],
  }));
  metrics.push({
    name: 'step_count',
    units: 'count',
    data: [{ date: '2024-03-01 00:00:00 +0000', qty: 1200, source: 'Watch' }],
  } as never);
  return Buffer.from(JSON.stringify({ data: { metrics, workouts: [], symptoms: [{ name: 'x' }] } }));
}

describe('a body sent again byte for byte', () => {
  for (const file of HAE_FILES) {
    it(`answers ${file} as a block-by-block re-send does`, async () => {
      srv = await startIngestServer({ cards: FAMILY_CARDS });
      const bytes = haeBytes(file);
      const first = await srv.push(bytes);
      expect(first.status).toBe(200);
      const stored = srv.inst.hae.samples.count();
      const byBlocks = await srv.push(respelled(bytes));
      const byBlocksPush = lastPushOf(srv);
      const byBody = await srv.push(bytes);
      expect(byBody.status).toBe(200);
      expect(byBody.body).toEqual(byBlocks.body);
      expect(lastPushOf(srv)).toEqual(byBlocksPush);
      expect(byBody.body.samples).toEqual({ received: first.body.samples.received, new: 0 });
      expect(srv.inst.hae.samples.count()).toBe(stored);
    });
  }

  it('repeats the warnings, the count beyond the cap and the metrics seen', async () => {
    srv = await startIngestServer({ cards: FAMILY_CARDS });
    const body = noisyBody();
    const first = await srv.push(body);
    expect(first.body.ok).toBe(true);
    expect(first.body.warnings.at(-1)).toMatch(/^\.\.\. and \d+ more warning\(s\)$/);
    const byBlocks = await srv.push(respelled(body));
    const byBody = await srv.push(body);
    expect(byBody.body).toEqual(byBlocks.body);
    expect(byBody.body.warnings).toEqual(first.body.warnings);
    expect(byBody.body.availableUnsubscribed).toEqual(first.body.availableUnsubscribed);
    expect(byBody.body.samples).toEqual({ received: first.body.samples.received, new: 0 });
  });

  it('is read again when its samples were removed since (the memos go with them)', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const bytes = haeBytes(HAE_FILES[0]);
    const first = await srv.push(bytes);
    expect(first.body.samples.new).toBeGreaterThan(0);
    // what every removal of samples does (a data import, a re-keying): memos vouch for stored samples
    srv.inst.db.exec('DELETE FROM hae_samples; DELETE FROM hae_block_memo');
    const again = await srv.push(bytes);
    expect(again.body.samples).toEqual(first.body.samples);
  });

  it('that did not parse is quarantined each time (no memo)', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const broken = Buffer.from('{"data": {"metrics": [');
    for (let i = 0; i < 2; i++) {
      const r = await srv.push(broken);
      expect(r.status).toBe(200);
      expect(r.body.ok).toBe(false);
      expect(r.body.warning).toMatch(/not valid JSON/);
    }
    const deep = Buffer.from(`${'['.repeat(100)}${']'.repeat(100)}`);
    for (let i = 0; i < 2; i++) expect((await srv.push(deep)).body.warning).toMatch(/nests deeper/);
  });
});
