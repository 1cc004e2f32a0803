/**
 * Revoking an agent token in Settings › Security with the keyboard, in Chromium against the real
 * server, signed in with a passkey of a virtual authenticator. The first Revoke makes way for the
 * confirmation and the revoked row leaves the list: each time the focus fell to the page, and a
 * keyboard user started again at its top. The focus now goes to Keep (the safe choice), back to
 * Revoke after Keep, and after a revocation to the next row's button, else the panel.
 */
import { describe, expect, it } from 'vitest';
import type { WatchedPage } from './browser.js';
import { useDashboard } from './entry-support.js';
import { signUpWithPasskey } from './virtual-authenticator.js';

const d = useDashboard({ timezoneId: 'Europe/Berlin', manifests: () => [] });

/** The name of what has the focus, and the token row it is in. */
const focused = (w: WatchedPage) =>
  w.page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'body';
    const row = el.closest('[data-token-id]')?.querySelector('.setting-label')?.firstChild?.textContent;
    return `${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim()}${row ? ` @ ${row}` : ''}`;
  });

describe('revoking a token with the keyboard', { timeout: 120_000 }, () => {
  it('keeps the focus on the confirmation, then on the next row, then on the panel', async () => {
    // a person signed in with a passkey (a virtual authenticator) makes the tokens
    const w = await d.open('/');
    const { base } = await signUpWithPasskey(w.page, d.s);
    await w.page.goto(`${base}/settings/security`);
    for (const name of ['Laptop script', 'Backup job']) {
      await w.page.getByLabel('Name', { exact: true }).fill(name);
      await w.page.getByRole('button', { name: 'Create token' }).click();
      await w.page.locator('[data-token-id]', { hasText: name }).waitFor();
    }
    const rows = w.page.locator('[data-token-id]');
    await expect.poll(() => rows.count()).toBe(2);
    const first =
      (await rows
        .first()
        .locator('.setting-label')
        .evaluate((el) => el.firstChild?.textContent)) ?? '';
    const second =
      (await rows
        .nth(1)
        .locator('.setting-label')
        .evaluate((el) => el.firstChild?.textContent)) ?? '';

    await rows
      .first()
      .getByRole('button', { name: /^Revoke/ })
      .focus();
    await w.page.keyboard.press('Enter');
    await expect.poll(() => focused(w)).toBe(`Keep @ ${first}`);
    await w.page.keyboard.press('Enter');
    await expect.poll(() => focused(w)).toMatch(new RegExp(`^Revoke .* @ ${first}$`));

    await w.page.keyboard.press('Enter');
    await expect.poll(() => focused(w)).toBe(`Keep @ ${first}`);
    await w.page.keyboard.press('Shift+Tab');
    await w.page.keyboard.press('Enter');
    await expect.poll(() => rows.count()).toBe(1);
    await expect.poll(() => focused(w)).toMatch(new RegExp(`^Revoke .* @ ${second}$`));

    await w.page.keyboard.press('Enter');
    await expect.poll(() => focused(w)).toBe(`Keep @ ${second}`);
    await w.page.keyboard.press('Shift+Tab');
    await w.page.keyboard.press('Enter');
    await expect.poll(() => rows.count()).toBe(0);
    await expect.poll(() => focused(w)).not.toBe('body');
    expect(
      await w.page.evaluate(() =>
        document.activeElement?.closest('section')?.getAttribute('aria-labelledby'),
      ),
    ).toBe('security-tokens');
  });
});
