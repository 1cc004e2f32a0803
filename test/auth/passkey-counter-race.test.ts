/**
 * Two sign-ins at once with one passkey: both are verified against the same stored signature
 * counter, so the one that finishes last must not store a lower counter than the first stored
 * (that would let a replay of the lower one pass later). The stored counter only goes up.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startServer, type TestServer } from '../helpers/server.js';
import { browser, codeOf, register } from './flows.js';
import { SoftAuthenticator } from './soft-authenticator.js';

let s: TestServer;
let authn: SoftAuthenticator;

beforeAll(async () => {
  s = await startServer({ env: { KLEBB_AUTH_RATE_LIMIT: '0' } });
  authn = new SoftAuthenticator(s.url);
  await register(s, authn, { code: codeOf(s.inst.auth.setupLink() as string) });
});
afterAll(async () => {
  await s?.close();
});

function storedCounters(): number[] {
  const data = JSON.parse(fs.readFileSync(s.inst.auth.passkeys.file, 'utf8'));
  return Object.values(data.users as Record<string, { credentials: { counter: number }[] }>).flatMap((u) =>
    u.credentials.map((c) => c.counter),
  );
}

describe('two sign-ins at once with one passkey', () => {
  it('never leave the lower signature counter stored', async () => {
    const headers = browser(authn.origin);
    let lowered = 0;
    for (let round = 0; round < 20; round++) {
      const optA = await request(s.url, '/auth/login/options', { method: 'POST', headers });
      const optB = await request(s.url, '/auth/login/options', { method: 'POST', headers });
      const a = authn.get(optA.body); // counter n+1
      const b = authn.get(optB.body); // counter n+2
      const highest = authn.credentials[0].counter;
      // both verified at once, against the same stored counter; the higher one may finish first
      const [vb, va] = await Promise.all([
        request(s.url, '/auth/login/verify', { json: { response: b }, headers }),
        request(s.url, '/auth/login/verify', { json: { response: a }, headers }),
      ]);
      expect(vb.status === 200 || va.status === 200, `${vb.text} ${va.text}`).toBe(true);
      if (storedCounters()[0] !== highest && vb.status === 200) lowered++;
      for (const v of [va, vb])
        if (v.status !== 200) expect(['COUNTER_REPLAY', 'VERIFICATION_FAILED']).toContain(v.body.code);
    }
    expect(lowered).toBe(0);
  });
});
