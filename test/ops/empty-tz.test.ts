/**
 * A server started with TZ set but empty (a compose file's `TZ: ${TZ}` on a host without TZ,
 * systemd's `Environment=TZ=`) or naming no zone (`TZ=Europe/Berln`), before the web app has
 * reported the person's zone. The runtime then names its zone 'Etc/Unknown' (or nothing), which
 * every date routine refuses: pausing reminders answered 500 and every chat turn failed. The
 * server's clock runs on UTC then, so UTC is its zone, and the log says so once.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { killAllChildren, spawnServer } from '../helpers/child-server.js';
import { sandboxHome } from '../helpers/sandbox-home.js';
import { startScriptedGateway } from '../helpers/scripted-gateway.js';

afterAll(() => killAllChildren());

describe('TZ set to no zone the server knows', () => {
  for (const tz of ['', 'Europe/Berln']) {
    it(`TZ=${JSON.stringify(tz)}: reminders pause and the chat answers, on UTC, with a warning in the log`, async () => {
      const gw = await startScriptedGateway();
      const box = sandboxHome();
      try {
        const child = await spawnServer({
          home: box.home,
          env: { TZ: tz, CHAT_ENDPOINT_URL: gw.url, CHAT_MODEL: 'm', KLEBB_LOG_LEVEL: 'info' },
        });
        const before = await child.api('/api/notifications');
        expect(before.status).toBe(200);
        expect(before.body.tz).toBe('UTC');
        const pause = await child.api('/api/notifications/global-state', {
          json: { paused_until: '2099-12-09' },
        });
        expect(pause.status, JSON.stringify(pause.body)).toBe(200);
        const after = await child.api('/api/notifications');
        expect(after.body.paused_until).toBe('2099-12-09T00:00:00.000Z');

        gw.script({ kind: 'reply', text: 'Noted.' });
        const conv = await child.api('/api/conversations', { json: {} });
        const turn = await child.api('/api/chat', {
          json: { conversationId: conv.body.id, messages: [{ role: 'user', content: 'hello' }] },
        });
        expect(turn.status, JSON.stringify(turn.body)).toBe(200);
        expect(gw.requests.length).toBe(1);

        const output = child.output();
        expect(output).toContain(
          `TZ: ${JSON.stringify(JSON.stringify(tz)).slice(1, -1)} is not a time zone name`,
        );
        expect(output).not.toContain('Invalid time zone');
      } finally {
        await gw.close();
        box.remove();
      }
    });
  }
});
