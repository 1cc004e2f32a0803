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
