/**
 * A failed attempt at the chat gateway is logged even when a retry hides it from the person: one
 * warn line each with the status, the attempt number, the wait before the next try (or that none
 * follows), the error's kind and code, and a short message; never the API key or what was said.
 */
import { afterAll, expect, it } from 'vitest';
import { killAllChildren, spawnServer } from '../helpers/child-server.js';
import { sandboxHome } from '../helpers/sandbox-home.js';
import { startScriptedGateway } from '../helpers/scripted-gateway.js';

afterAll(() => killAllChildren());

interface AttemptLine {
  level: number;
  reqId?: string;
  msg?: string;
  gateway?: {
    attempt: number;
    status: number | null;
    kind: string;
    code: string | number | null;
    next: string;
    waitMs: number | null;
    message: string;
  };
}

it('logs each failed gateway attempt without the key or the conversation', async () => {
  const gw = await startScriptedGateway();
  const box = sandboxHome();
  const key = 'sk-live-SECRETKEY1234567890';
  const secretWords = 'my blood pressure diary';
  try {
    const child = await spawnServer({
      home: box.home,
      env: { CHAT_ENDPOINT_URL: gw.url, CHAT_MODEL: 'm', CHAT_API_KEY: key, KLEBB_LOG_LEVEL: 'info' },
    });
    gw.script(
      {
        kind: 'error',
        status: 503,
        body: { error: { message: `Service Unavailable for key ${key}`, type: 'service_unavailable' } },
      },
      {
        kind: 'bytes',
        chunks: [
          `data: ${JSON.stringify({ error: { code: 502, message: `upstream failed on input: {"content":"${secretWords}"}` } })}\n\n`,
        ],
      },
      { kind: 'reply', text: 'Third try answers.' },
    );
    const turn = await child.api('/api/chat', {
      json: { messages: [{ role: 'user', content: secretWords }] },
    });
    expect(turn.status).toBe(200);
    await child.stop();
    const output = child.output();
    const lines = output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as AttemptLine);
    const failed = lines.filter((l) => l.msg === 'chat gateway attempt failed');
    expect(failed.map((l) => l.gateway?.attempt)).toEqual([1, 2]);
    expect(failed.every((l) => l.level === 40 && !!l.reqId)).toBe(true);
    expect(failed[0].gateway).toMatchObject({ status: 503, kind: 'unavailable', next: 'retry' });
    expect(failed[0].gateway?.waitMs).toBeGreaterThan(0);
    expect(failed[0].gateway?.message).toMatch(/Service Unavailable/);
    expect(failed[1].gateway).toMatchObject({ status: null, code: 502, next: 'retry' });
    expect(failed[1].gateway?.message).toMatch(/upstream failed/);
    expect(output).not.toContain('SECRETKEY');
    expect(output).not.toContain(secretWords);
  } finally {
    await gw.close();
    box.remove();
  }
});
