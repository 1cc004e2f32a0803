/**
 * A shutdown never hangs on a client (src/app.ts CLOSE_GRACE_MS): a request whose body never
 * finishes arriving keeps its connection busy, which `server.close()` alone would wait for until
 * Node's request timeout (300 s). `app.close()` cuts it after the grace period.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';

const CLOSE_GRACE_MS = 5000;

import { startServer } from '../helpers/server.js';

describe('app.close() with a client that never finishes its request', () => {
  it('ends within the grace period and cuts the stalled connection', async () => {
    const s = await startServer();
    const port = Number(new URL(s.url).port);
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((done) => socket.once('connect', () => done()));
    const ended = new Promise<void>((done) => socket.once('close', () => done()));
    // the head and 10 of the 1 000 bytes promised: the request is in flight, the connection busy
    socket.write(
      'POST /api/manifests HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"meta": {',
    );
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    await s.close();
    const took = Date.now() - started;
    await ended;
    expect(socket.destroyed || socket.readyState === 'closed').toBe(true);
    // it waited for the request a while (the grace), then did not wait for it any longer
    expect(took).toBeGreaterThanOrEqual(CLOSE_GRACE_MS - 100);
    expect(took).toBeLessThan(CLOSE_GRACE_MS + 20_000);
  });
});
