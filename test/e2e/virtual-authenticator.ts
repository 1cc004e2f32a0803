/**
 * A virtual platform authenticator for a Chromium tab (the DevTools WebAuthn domain): what a
 * phone's or laptop's built-in passkey store is to the app, with user verification on and
 * resident (discoverable) keys, so tests create and use real passkeys without a person.
 */
import type { CDPSession, Page } from 'playwright-core';

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
