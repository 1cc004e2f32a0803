/**
 * Names from a push or an export that are also the names of Object's own members (`constructor`,
 * `toString`, `__proto__`, `hasOwnProperty`) are names like any other: a metric so named is a
 * discovery labelled with its own name in words, a unit so named is an unknown unit (the value
 * left out with a warning), an Apple Health type so named is one unmapped type.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalFinishReason } from '../../src/chat/gateway/finish-reason.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const AT = '2026-05-19 08:00:00 -0700';
const NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

describe("names that are Object's own members", () => {
  it('metrics so named are discoveries labelled in words', async () => {
    srv = await startIngestServer();
    const metrics = NAMES.map((name) => ({ name, units: 'count', data: [{ date: AT, qty: 3 }] }));
    const r = await srv.push(JSON.stringify({ data: { metrics } }));
    expect(r.status).toBe(200);
    const d = await srv.api('/api/health-auto-export/discoveries');
    expect(d.status).toBe(200);
    const found = d.body.undismissed.unsupported as { metric: string; label: unknown }[];
    expect(found.map((f) => f.metric).sort()).toEqual(NAMES.map((n) => n.toLowerCase()).sort());
    for (const f of found) {
      expect(typeof f.label, f.metric).toBe('string');
      expect(f.label).not.toMatch(/native code|\[object/);
    }
  });

  it('a unit so named is an unknown unit: the value is left out with a warning', async () => {
    srv = await startIngestServer({ cards: [['weight', 'weight_body_mass']] });
    for (const units of ['constructor', '__proto__']) {
      const r = await srv.push(
        JSON.stringify({
          data: { metrics: [{ name: 'weight_body_mass', units, data: [{ date: AT, qty: 70 }] }] },
        }),
      );
      expect(r.status).toBe(200);
      expect(JSON.stringify(r.body.warnings)).toContain(units);
    }
    expect(await srv.rows('weight')).toEqual([]);
  });

  it('an Apple Health type so named is counted once as unmapped', async () => {
    srv = await startIngestServer();
    const rec = (type: string) =>
      `<Record type="${type}" sourceName="iPhone" unit="count" startDate="2026-05-19 08:00:00 -0700" endDate="2026-05-19 08:01:00 -0700" value="1"/>`;
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n <ExportDate value="2026-05-20 08:00:00 -0700"/>\n ${rec('constructor')}\n ${rec('constructor')}\n ${rec('__proto__')}\n ${rec('HKQuantityTypeIdentifierStepCount')}\n</HealthData>\n`;
    const r = await srv.importExport(xml);
    expect(r.status).toBeLessThan(300);
    const text = JSON.stringify(r.body);
    expect(text).not.toMatch(/native code|\[object/);
    expect(text).toMatch(/constructor/);
  });

  it('a finish reason so named is only lower-cased', () => {
    for (const n of NAMES) expect(canonicalFinishReason(n)).toBe(n.toLowerCase());
  });
});
