/**
 * A refused request says why in the log, not only its status: every 4xx answer of the error
 * catalogue is an info line with its status, code and message, with the request's id (a refused
 * Apple Health upload, a webhook push with a wrong token); a webhook push answered
 * `{ok: false}` has its warning on its `HAE push` line, without the body's own text.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { killAllChildren, spawnServer } from '../helpers/child-server.js';
import { sandboxHome } from '../helpers/sandbox-home.js';

afterAll(() => killAllChildren());

interface LogLine {
  level: number;
  reqId?: string;
  msg?: string;
  status?: number;
  code?: string;
  warning?: string;
  req?: { url?: string };
  res?: { statusCode?: number };
}

describe('refusals in the log', () => {
  it('name their code and reason', async () => {
    const box = sandboxHome();
    try {
      const child = await spawnServer({ home: box.home, env: { KLEBB_LOG_LEVEL: 'info' } });
      // an upload without the file: 400
      const empty = await child.api('/api/apple-health/import', {
        method: 'POST',
        body: '',
        headers: { 'content-type': 'application/xml' },
      });
      expect(empty.status).toBe(400);
      // a file that is no export at all: 422
      const notExport = await child.api('/api/apple-health/import', {
        body: '<?xml version="1.0"?><Other/>',
        headers: { 'content-type': 'application/xml' },
      });
      expect(notExport.status).toBe(422);
      const made = await child.api('/api/health-auto-export/token', { method: 'POST' });
      const wrong = await child.api('/api/health-auto-export', {
        token: 'not-the-token',
        json: { data: { metrics: [] } },
      });
      expect(wrong.status).toBe(401);
      const broken = await child.api('/api/health-auto-export', {
        token: made.body.token,
        body: '{"data": {"metrics": [SECRET-TEXT',
        headers: { 'content-type': 'application/json' },
      });
      expect(broken.body.ok).toBe(false);
      await child.stop();
      const lines = child
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as LogLine);
      const refusals = [
        { answer: empty, url: '/api/apple-health/import' },
        { answer: notExport, url: '/api/apple-health/import' },
        { answer: wrong, url: '/api/health-auto-export' },
      ];
      for (const { answer, url } of refusals) {
        const line = lines.find((l) => l.code === answer.body.code && l.status === answer.status);
        expect(line, `${answer.status} ${answer.body.code}\n${child.output()}`).toBeDefined();
        expect(line?.level).toBe(30);
        expect(line?.msg).toBe(answer.body.error);
        const done = lines.find((l) => l.msg === 'request completed' && l.reqId === line?.reqId);
        expect(done?.req?.url).toBe(url);
        expect(done?.res?.statusCode).toBe(answer.status);
      }
      const push = lines.find((l) => l.msg === 'HAE push' && l.warning);
      expect(push?.warning).toMatch(/^the body is not valid JSON; nothing was ingested/);
      expect(child.output()).not.toContain('SECRET-TEXT');
    } finally {
      box.remove();
    }
  });
});
