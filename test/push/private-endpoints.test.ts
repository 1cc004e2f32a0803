/**
 * A push subscription's endpoint is where the server will POST every reminder: one on this
 * machine or a private network (loopback, RFC 1918, shared address space, unique-local IPv6,
 * also written as IPv4-mapped IPv6 or as a bare number) is refused with 400 naming the field,
 * and nothing is stored, unless the operator allows private endpoints
 * (KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS=1, set here only in the second server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PushStandIn, startPushStandIn } from '../helpers/push-stand-in.js';
import { startServer, type TestServer } from '../helpers/server.js';

let push: PushStandIn;
let s: TestServer;

beforeAll(async () => {
  push = await startPushStandIn();
  s = await startServer({ push: { agent: push.agent, autoStart: false } });
});
afterAll(async () => {
  await s.close();
  await push.close();
});

describe('private push endpoints', () => {
  it('are refused with 400 naming body.endpoint, storing nothing', async () => {
    const sub = push.subscribe();
    const endpoints = [
      sub.endpoint, // the stand-in itself, on 127.0.0.1
      'https://localhost:8443/x',
      'https://127.0.0.1/x',
      'https://2130706433/x',
      'https://0x7f000001/x',
      'https://10.1.2.3/x',
      'https://172.16.0.1/x',
      'https://192.168.1.1/x',
      'https://100.64.0.1/x',
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://[::ffff:c0a8:101]/x',
      'https://[fd00::1]/x',
    ];
    for (const endpoint of endpoints) {
      const r = await s.api('/api/push/subscribe', { json: { endpoint, keys: sub.keys } });
      expect(r.status, endpoint).toBe(400);
      expect(r.body.code, endpoint).toBe('INVALID_SUBSCRIPTION');
      expect(r.body.details[0].path, endpoint).toBe('body.endpoint');
    }
    expect(s.inst.push.subs.all()).toHaveLength(0);
  });

  it('are allowed with KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS=1', async () => {
    const own = await startServer({
      env: { KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' },
      push: { agent: push.agent, autoStart: false },
    });
    try {
      const sub = push.subscribe();
      const r = await own.api('/api/push/subscribe', { json: { endpoint: sub.endpoint, keys: sub.keys } });
      expect(r.status).toBe(201);
    } finally {
      await own.close();
    }
  });
});

describe('a host name that resolves to a private address', () => {
  it('is refused at send time by the look-up itself', async () => {
    const { guardedLookup, PRIVATE_RESOLUTION } = await import('../../src/push/guarded-lookup.js');
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup(false)('localhost', {}, (e) => resolve(e)),
    );
    expect(err?.code).toBe(PRIVATE_RESOLUTION);
    expect(err?.message).toMatch(/localhost resolves to/);
    const allowed = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup(true)('localhost', {}, (e) => resolve(e)),
    );
    expect(allowed).toBeNull();
  });
});
