/**
 * Structured logs: the server logs pino JSON, one line per request (method, URL, status, time),
 * and every line a chat turn writes (its debug lines
 * with HEALTH_DEBUG=1 and the line that says how it ended) carries the id of the request that
 * started it, also for a conversation turn that runs detached from its request.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { killAllChildren, spawnServer } from '../helpers/child-server.js';
import { sandboxHome } from '../helpers/sandbox-home.js';
import { startScriptedGateway } from '../helpers/scripted-gateway.js';

afterAll(() => killAllChildren());

describe('request ids in the logs', () => {
  it("ties a chat turn's log lines to the request that started it", async () => {
    const gw = await startScriptedGateway();
    const box = sandboxHome();
    try {
      const child = await spawnServer({
        home: box.home,
        env: { CHAT_ENDPOINT_URL: gw.url, CHAT_MODEL: 'm', KLEBB_LOG_LEVEL: 'info', HEALTH_DEBUG: '1' },
      });
      const conv = await child.api('/api/conversations', { json: {} });
      expect(conv.status).toBe(201);
      gw.script(
        { kind: 'reply', toolCalls: [{ id: 'c1', name: 'list_manifests', arguments: {} }] },
        { kind: 'reply', text: 'You have one card.' },
      );
      const turn = await child.api('/api/chat', {
        json: { conversationId: conv.body.id, messages: [{ role: 'user', content: 'what cards?' }] },
      });
      expect(turn.status).toBe(200);
      await child.stop();
      const lines = child
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map(
          (l) =>
            JSON.parse(l) as {
              reqId?: string;
              msg?: string;
              req?: { url?: string; method?: string };
              res?: { statusCode?: number };
              responseTime?: number;
            },
        );
      const ended = lines.find((l) => l.msg === 'chat turn ended');
      expect(ended?.reqId, 'the turn-end line has a request id').toBeTruthy();
      // one line per request, written when it ends, with the request's method and URL
      const request = lines.find((l) => l.msg === 'request completed' && l.reqId === ended?.reqId);
      expect(request?.req?.url).toBe('/api/chat');
      expect(request?.req?.method).toBe('POST');
      expect(request?.res?.statusCode).toBe(200);
      expect(typeof request?.responseTime).toBe('number');
      expect(lines.some((l) => l.msg === 'incoming request')).toBe(false);
      const debug = lines.filter((l) => l.msg?.startsWith('[chat:'));
      expect(debug.length).toBeGreaterThan(0);
      expect(new Set(debug.map((l) => l.reqId))).toEqual(new Set([ended?.reqId]));
    } finally {
      await gw.close();
      box.remove();
    }
  });
});
