/**
 * A documented answer for a state of the server (501 INGEST_DISABLED while no Health Auto Export
 * token is set, 503 CHAT_NOT_CONFIGURED) is not a server fault: the log has one warn line with
 * its code and no stack, and nothing at error level.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { killAllChildren, spawnServer } from '../helpers/child-server.js';
import { sandboxHome } from '../helpers/sandbox-home.js';

afterAll(() => killAllChildren());

interface LogLine {
  level: number;
  msg?: string;
  code?: string;
  status?: number;
  err?: { stack?: string };
}

describe('documented 5xx answers in the log', () => {
  it('are one warn line with their code, never an error with a stack', async () => {
    const box = sandboxHome();
    try {
      const child = await spawnServer({ home: box.home, env: { KLEBB_LOG_LEVEL: 'info' } });
      const off = await child.api('/api/health-auto-export', {
        token: 'no-such-token',
        json: { data: { metrics: [] } },
      });
      expect(off.status).toBe(501);
      expect(off.body.code).toBe('INGEST_DISABLED');
      const conv = await child.api('/api/conversations', { json: {} });
      const chat = await child.api('/api/chat', {
        json: { conversationId: conv.body.id, messages: [{ role: 'user', content: 'hi' }] },
      });
      expect(chat.status).toBe(503);
      expect(chat.body.code).toBe('CHAT_NOT_CONFIGURED');
      await child.stop();
      const lines = child
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as LogLine);
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);
      for (const code of ['INGEST_DISABLED', 'CHAT_NOT_CONFIGURED']) {
        const line = lines.find((l) => l.code === code);
        expect(line, code).toBeDefined();
        expect(line?.level, code).toBe(40);
        expect(line?.err, code).toBeUndefined();
        expect(JSON.stringify(line), code).not.toMatch(/stack| {4}at /);
      }
    } finally {
      box.remove();
    }
  });
});
