/**
 * Settings › Security: an agent token the server refuses to make (409 TOKEN_NAME_TAKEN: another
 * device made one of that name meanwhile) leaves the keyboard's focus on "Create token", in
 * Chromium against the real server, signed in with a passkey of a virtual authenticator. The
 * button was disabled while the request ran, and a focused button that is disabled drops the
 * focus to the page: a keyboard or screen-reader user heard the refusal and was left at the top
 * of the page. It is now aria-disabled while busy.
 */
import { describe, expect, it } from 'vitest';
import { useDashboard } from './entry-support.js';
import { focusedName } from './focus.js';
import { signUpWithPasskey } from './virtual-authenticator.js';

const d = useDashboard({ timezoneId: 'Europe/Berlin', manifests: () => [] });

describe('a refused agent token', { timeout: 120_000 }, () => {
  it('leaves the focus on "Create token"', async () => {
    const w = await d.open('/');
    const { base } = await signUpWithPasskey(w.page, d.s);
    await w.page.goto(`${base}/settings/security`);
    const create = w.page.getByRole('button', { name: 'Create token' });
    await w.page.getByLabel('Name', { exact: true }).fill('Laptop script');
    await create.click();
    await w.page.locator('[data-token-id]', { hasText: 'Laptop script' }).waitFor();

    // the same name again: the server refuses it
    await w.page.getByLabel('Name', { exact: true }).fill('Laptop script');
    await create.focus();
    await w.page.keyboard.press('Enter');
    await w.page.locator('form .auth-error[role="alert"]').waitFor();
    expect(await focusedName(w)).toBe('Create token');
    expect(await w.page.locator('[data-token-id]').count()).toBe(1);
    // the browser logs the refusal it was meant to get; anything else fails the test
    const expected = (p: string) => p.includes('status of 409') && p.includes('/api/tokens');
    w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !expected(p)));
  });
});
