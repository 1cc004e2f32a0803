/**
 * Bodies shaped to hurt the webhook (docs/HEALTH-AUTO-EXPORT.md "Troubleshooting"): nesting that
 * overflows the call stack, thousands of invented metric names, a huge name, a name with a lone
 * surrogate. Each is answered with a warning of ours and leaves bounded state behind.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_METRIC_NAME_CHARS, MAX_UNKNOWN_DISCOVERIES } from '../../src/ingest/hae/format/limits.js';
import { MAX_JSON_DEPTH } from '../../src/ingest/hae/format/nesting.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

function metrics(blocks: { name: string; qty?: number }[]): string {
  return JSON.stringify({
    data: {
      metrics: blocks.map((b) => ({
        name: b.name,
        units: 'count',
        data: [{ date: '2025-05-01 09:00:00 +0200', qty: b.qty ?? 1 }],
      })),
    },
  });
}

async function unsupported(s: IngestServer): Promise<string[]> {
  const d = await s.api('/api/health-auto-export/discoveries');
  expect(d.status).toBe(200);
  return (d.body.undismissed.unsupported as { metric: string }[]).map((x) => x.metric);
}

describe('hostile bodies', () => {
  it('a body nested 100,000 levels deep gets our warning, no internal message, nothing ingested', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const deep = `{"data":{"metrics":[{"name":"step_count","units":"count","data":[{"date":"2025-05-01 09:00:00 +0200","qty":5,"metadata":${'['.repeat(100_000)}${']'.repeat(100_000)}}]}]}}`;
    const r = await srv.push(deep);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      ok: false,
      ingested: {},
      availableUnsubscribed: [],
      warning: `the body nests deeper than ${MAX_JSON_DEPTH} levels (an HAE body nests about 8); nothing was ingested`,
    });
    expect(r.text).not.toMatch(/call stack/i);
    expect(await srv.rows('steps')).toEqual([]);
    // the real shapes still go through (a route inside a workout nests 6 levels)
    const ok = await srv.push(metrics([{ name: 'step_count', qty: 5 }]));
    expect(ok.body.ok).toBe(true);
    expect(await srv.rows('steps')).toEqual([{ date: '2025-05-01', count: 5 }]);
  });

  it(`2,000 unknown names: at most ${MAX_UNKNOWN_DISCOVERIES} kept as discoveries, with a warning`, async () => {
    srv = await startIngestServer();
    const names = Array.from({ length: 2000 }, (_, i) => `invented_metric_${String(i).padStart(4, '0')}`);
    const r = await srv.push(metrics(names.map((name) => ({ name }))));
    expect(r.body.ok).toBe(true);
    expect(r.body.warnings).toContain(
      `${2000 - MAX_UNKNOWN_DISCOVERIES} metric name(s) the catalogue does not know not kept as discoveries (at most ${MAX_UNKNOWN_DISCOVERIES} are kept)`,
    );
    expect(r.body.availableUnsubscribed).toHaveLength(MAX_UNKNOWN_DISCOVERIES);
    expect(await unsupported(srv)).toHaveLength(MAX_UNKNOWN_DISCOVERIES);
    // a catalogue metric is still discovered once the unknown ones are full
    const later = await srv.push(metrics([{ name: 'flights_climbed' }, { name: 'another_invention' }]));
    expect(later.body.availableUnsubscribed).toEqual(['flights_climbed']);
    const d = (await srv.api('/api/health-auto-export/discoveries')).body;
    expect(d.undismissed.supported.activity).toEqual([
      expect.objectContaining({ metric: 'flights_climbed' }),
    ]);
    expect(await unsupported(srv)).toHaveLength(MAX_UNKNOWN_DISCOVERIES);
  });

  it(`a metric name over ${MAX_METRIC_NAME_CHARS} characters is skipped with a warning`, async () => {
    srv = await startIngestServer();
    const long = 'x'.repeat(100_000);
    const r = await srv.push(metrics([{ name: long }, { name: 'fine_name' }]));
    expect(r.body.warnings).toEqual([
      `1 metric block(s) whose name is longer than ${MAX_METRIC_NAME_CHARS} characters skipped (e.g. "${'x'.repeat(40)}...")`,
    ]);
    expect(r.body.availableUnsubscribed).toEqual(['fine_name']);
    expect(r.text.length).toBeLessThan(1000);
    expect(await unsupported(srv)).toEqual(['fine_name']);
  });

  it('the example of a skipped long name never ends in half an emoji', async () => {
    srv = await startIngestServer();
    const long = `${'x'.repeat(39)}${'👩‍👩‍👧'.repeat(20_000)}`;
    const r = await srv.push(metrics([{ name: long }]));
    const warning = String(r.body.warnings?.[0] ?? '');
    expect(warning).toContain(`(e.g. "${'x'.repeat(39)}👩‍👩‍👧...")`);
    expect(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(warning)).toBe(
      false,
    );
  });

  it('a name with a lone surrogate is echoed as it is stored (U+FFFD)', async () => {
    srv = await startIngestServer();
    const r = await srv.push(metrics([{ name: 'step\ud800' }]));
    expect(r.body.availableUnsubscribed).toEqual(['step\ufffd']);
    expect(await unsupported(srv)).toEqual(['step\ufffd']);
  });
});
