/**
 * Warnings of the ingest (a Health Auto Export body that is not JSON, quarantined) are pino lines
 * like every other: with a time, a numeric level, and the id of the request they belong to, the
 * same id as that request's `request completed` line. No line of the server's log is a bare JSON
 * record without a time.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { killAllChildren, spawnServer } from '../helpers/child-server.js';
import { sandboxHome } from '../helpers/sandbox-home.js';

afterAll(() => killAllChildren());

interface LogLine {
  level: number | string;
  time?: number;
  reqId?: string;
  msg?: string;
  req?: { url?: string };
}

describe('ingest warnings in the log', () => {
  it('carry time, level and the request id of the push', async () => {
    const box = sandboxHome();
    try {
      const child = await spawnServer({ home: box.home, env: { KLEBB_LOG_LEVEL: 'info' } });
      const made = await child.api('/api/health-auto-export/token', { method: 'POST' });
      expect(made.status).toBe(201);
      const push = await child.api('/api/health-auto-export', {
        token: made.body.token,
        body: '{"data": {"metrics": [',
        headers: { 'content-type': 'application/json' },
      });
      expect(push.status).toBe(200);
      expect(push.body.ok).toBe(false);
      await child.stop();
      const lines = child
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as LogLine);
      const warned = lines.find((l) => l.msg === 'HAE body is not valid JSON; quarantined');
      expect(warned, child.output()).toBeDefined();
      expect(warned?.level).toBe(40);
      expect(typeof warned?.time).toBe('number');
      expect(warned?.reqId, 'the warning has the request id').toBeTruthy();
      const done = lines.find((l) => l.msg === 'request completed' && l.reqId === warned?.reqId);
      expect(done?.req?.url).toBe('/api/health-auto-export');
      // start-up lines too: every JSON line is pino's, with a time
      expect(lines.filter((l) => typeof l.time !== 'number')).toEqual([]);
    } finally {
      box.remove();
    }
  });
});

/** The pino lines a stopped child server wrote. */
function logLines(output: string): (LogLine & Record<string, unknown>)[] {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as LogLine & Record<string, unknown>);
}

describe('what an accepted push or import left out, in the log', () => {
  it('is counted on its HAE push and Apple Health import lines, without quoting a value', async () => {
    const box = sandboxHome();
    try {
      const child = await spawnServer({ home: box.home, env: { KLEBB_LOG_LEVEL: 'info' } });
      const card = await child.api('/api/settings/cards/from-template', { json: { templateId: 'weight' } });
      expect(card.status).toBeLessThan(300);
      const made = await child.api('/api/health-auto-export/token', { method: 'POST' });
      const point = (qty: unknown) => ({ date: '2026-12-01 07:00:00 +0000', qty });
      const push = await child.api('/api/health-auto-export', {
        token: made.body.token,
        json: {
          data: {
            metrics: [
              {
                name: 'weight_body_mass',
                units: 'kg',
                data: [point('eleven stone'), { ...point(71.5), date: '2026-12-02 07:00:00 +0000' }],
              },
            ],
          },
        },
      });
      expect(push.status).toBe(200);
      expect(push.body.ok).toBe(true);
      expect(push.body.warnings?.length).toBeGreaterThan(0);
      const cut =
        '<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n' +
        '<Record type="HKQuantityTypeIdentifierBodyMass" unit="kg" sourceName="Scale" startDate="2026-11-30 07:00:00 +0000" endDate="2026-11-30 07:00:00 +0000" value="72.25"/>\n' +
        '<Record type="HKQuantityTypeIdentifierBodyMass" unit="kg" sourceName="Scale" startDate="2026-11-29 07:00:00 +0000" endDate="2026-11-29 07:00:00 +0000" value="72.5"/>\n<Rec';
      const imported = await child.api('/api/apple-health/import', {
        body: cut,
        headers: { 'content-type': 'application/xml' },
      });
      expect(imported.status).toBe(200);
      expect(imported.body.truncated).toBe(true);
      await child.stop();
      const lines = logLines(child.output());
      const pushLine = lines.find((l) => l.msg === 'HAE push');
      expect(pushLine?.warnings, child.output()).toBe(push.body.warnings.length);
      const importLine = lines.find((l) => l.msg === 'Apple Health import');
      expect(importLine?.truncated, child.output()).toBe(true);
      expect(importLine?.warnings).toBe(imported.body.warnings.length);
      // counts only: no value of the body is written to the log
      expect(child.output()).not.toContain('eleven stone');
      expect(child.output()).not.toContain('72.25');
    } finally {
      box.remove();
    }
  });
});
