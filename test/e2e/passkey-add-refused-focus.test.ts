/**
 * Settings › Security: a passkey the server refuses to add (the authenticator's answer lacks the
 * user's presence and verification) leaves the keyboard's focus on "Add a passkey here", in
 * Chromium against the real server, signed in with a passkey of a virtual authenticator. The
 * button was disabled while the passkey was asked for, and a focused button that is disabled
 * drops the focus to the page: a keyboard or screen-reader user heard the refusal and was left at
 * the top of the page. It is now aria-disabled while busy.
 */
import { describe, expect, it } from 'vitest';
import { useDashboard } from './entry-support.js';
import { focusedName } from './focus.js';
import { signUpWithPasskey } from './virtual-authenticator.js';

const d = useDashboard({ timezoneId: 'Europe/Berlin', manifests: () => [] });

describe('a refused passkey', { timeout: 120_000 }, () => {
  it('leaves the focus on "Add a passkey here"', async () => {
    const w = await d.open('/');
    const { base, cdp, authenticatorId } = await signUpWithPasskey(w.page, d.s);
    await w.page.goto(`${base}/settings/security`);
    const add = w.page.getByRole('button', { name: 'Add a passkey here' });
    await add.waitFor();

    // another authenticator (this one holds the account's passkey already, which the browser
    // would refuse to make again) that answers without the user's presence: the server refuses
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
    const other = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    await cdp.send('WebAuthn.setResponseOverrideBits', {
      authenticatorId: other.authenticatorId,
      isBadUP: true,
      isBadUV: true,
    });
    await add.focus();
    await w.page.keyboard.press('Enter');
    const refusal = w.page.locator('.auth-form .auth-error[role="alert"]');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('could not be verified');
    expect(await focusedName(w)).toBe('Add a passkey here');
    expect(await w.page.locator('[data-passkey-id]').count()).toBe(1);
    // the browser logs the refusal it was meant to get; anything else fails the test
    const expected = (p: string) => p.includes('status of 400') && p.includes('/auth/register/verify');
    w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !expected(p)));
  });
});
