/**
 * The signature counter of a synced passkey (one a password manager or a platform keychain
 * shares between devices) is not one counter: each device, or each client of the same vault,
 * counts on its own, so a sign-in from the other device can carry a lower number than the last
 * one stored. Refusing it would lock the owner out of their own home. Such a passkey signs in
 * whatever its counter says; a passkey bound to one device (a security key) keeps the check.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { codeOf, register, signIn } from './flows.js';
import { SoftAuthenticator } from './soft-authenticator.js';

let s: TestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

async function withPasskey(synced: boolean): Promise<{ server: TestServer; authn: SoftAuthenticator }> {
  const server = await startServer({ env: { KLEBB_AUTH_RATE_LIMIT: '0' } });
  s = server;
  const authn = new SoftAuthenticator(server.url, synced);
  const reg = await register(server, authn, { code: codeOf(server.inst.auth.setupLink() as string) });
  expect(reg.verify?.status, reg.verify?.text).toBe(200);
  return { server, authn };
}

describe('a passkey whose counter goes back', () => {
  it('signs in when it is a synced passkey (another device counted on its own)', async () => {
    const { server, authn } = await withPasskey(true);
    for (let i = 0; i < 3; i++) expect((await signIn(server, authn)).verify.status).toBe(200);
    // the same passkey used from a second device, whose count is behind
    authn.credentials[0].counter = 0;
    const other = await signIn(server, authn);
    expect(other.verify.status, other.verify.text).toBe(200);
    expect(other.cookie).toBeTruthy();
    // back on the first device: still fine
    authn.credentials[0].counter = 3;
    expect((await signIn(server, authn)).verify.status).toBe(200);
  });

  it('is refused when the passkey lives on one device only (a copied key is the likely cause)', async () => {
    const { server, authn } = await withPasskey(false);
    for (let i = 0; i < 3; i++) expect((await signIn(server, authn)).verify.status).toBe(200);
    authn.credentials[0].counter = 0;
    const back = await signIn(server, authn);
    expect(back.verify.status).toBe(400);
  });
});
