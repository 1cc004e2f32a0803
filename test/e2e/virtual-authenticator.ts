/**
 * A virtual platform authenticator for a Chromium tab (the DevTools WebAuthn domain): what a
 * phone's or laptop's built-in passkey store is to the app, with user verification on and
 * resident (discoverable) keys, so tests create and use real passkeys without a person.
 */
import type { CDPSession, Page } from 'playwright-core';
import type { TestServer } from '../helpers/server.js';

/**
 * Gives `page` its own virtual authenticator; passkeys made there stay with that tab.
 * @returns the DevTools session and the authenticator's id, for a test that makes it misbehave
 *   (WebAuthn.setResponseOverrideBits).
 */
export async function addPasskeyAuthenticator(
  page: Page,
): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return { cdp, authenticatorId };
}

/**
 * Makes the account's first passkey in `page` with a virtual authenticator of its own, through
 * server `s`'s one-time setup link, and waits for Today: the page is then signed in. The server
 * is reached as `localhost`, since WebAuthn needs a host name and refuses an address.
 * @returns that base URL, for the test's next pages, and the authenticator (as addPasskeyAuthenticator).
 */
export async function signUpWithPasskey(
  page: Page,
  s: TestServer,
): Promise<{ base: string; cdp: CDPSession; authenticatorId: string }> {
  const authenticator = await addPasskeyAuthenticator(page);
  const base = s.url.replace('127.0.0.1', 'localhost');
  const code = new URL(s.inst.auth.setupLink() as string).hash;
  await page.goto(`${base}/setup${code}`);
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await page.waitForURL(`${base}/`);
  return { base, ...authenticator };
}
