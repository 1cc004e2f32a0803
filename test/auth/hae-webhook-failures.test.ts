/**
 * Wrong Health Auto Export webhook tokens count toward the refused-credentials limit per address
 * (KLEBB_AUTH_FAILURE_LIMIT, fresh-user tester item 6), like wrong bearers at the gate: past it
 * the webhook answers 429 with Retry-After, and the two kinds of refusal share one budget.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const LIMIT = 5;
const push = (token: string) =>
  (s as TestServer).api('/api/health-auto-export', { json: { data: { metrics: [] } }, token });

describe('HAE webhook refused tokens', () => {
  it('past KLEBB_AUTH_FAILURE_LIMIT a wrong webhook token gets 429 with Retry-After', async () => {
    s = await startServer({ env: { KLEBB_AUTH_FAILURE_LIMIT: String(LIMIT) } });
    const right = (await s.api('/api/health-auto-export/token', { method: 'POST' })).body.token as string;
    expect(right).toBeTruthy();
    expect((await push(right)).status).toBe(200);
    for (let i = 0; i < LIMIT; i++) {
      const r = await push(`wrong-${i}`);
      expect([i, r.status, r.body.code]).toEqual([i, 401, 'UNAUTHORIZED']);
      // the person setting up the app reads this in Health Auto Export: a place in Klebb, no route
      expect(r.body.error).toMatch(/Settings › Health Auto Export in Klebb/);
      expect(r.body.error).not.toMatch(/\/api\//);
    }
    const r = await push('wrong-last');
    expect([r.status, r.body.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    // the same address's wrong bearers elsewhere are past the limit too: one budget
    expect((await s.api('/api/manifests', { token: 'wrong-elsewhere' })).status).toBe(429);
  });

  it('wrong bearers at the gate and wrong webhook tokens add up', async () => {
    s = await startServer({ env: { KLEBB_AUTH_FAILURE_LIMIT: String(LIMIT) } });
    await s.api('/api/health-auto-export/token', { method: 'POST' });
    for (let i = 0; i < LIMIT - 1; i++)
      expect((await s.api('/api/manifests', { token: `w${i}` })).status).toBe(401);
    expect((await push('wrong-a')).status).toBe(401);
    expect((await push('wrong-b')).status).toBe(429);
  });
});
