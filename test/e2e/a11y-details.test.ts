/**
 * Small accessibility details, in Chromium against the real server:
 * - the chat button of the default agent (called "Chat") is named "Open the chat", not "Chat
 *   with Chat";
 * - a `# heading` in a markdown card is an h3 under the card's h2 label: the page keeps one h1;
 * - a card without an emoji shows nothing in its Settings row (no placeholder square);
 * - the logo leads to Today like the name beside it, and the bar has one theme switch: a
 *   screen reader heard two buttons of the same name, and a click on the logo changed the theme;
 * - the first Tab reaches a "Skip to the content" link that moves the keyboard past the bar and
 *   its links (on Today a strip of 30 days follows them), shown only while it has the focus.
 */
import { describe, expect, it } from 'vitest';
import { useDashboard } from './entry-support.js';

const TZ = 'Europe/Berlin';

const note = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'note',
    label: 'A note',
    emoji: '📝',
    order: 1,
    view: { enabled: true, component: 'markdown-doc' },
  },
  data: { markdown: '# Big title\n\nSome text.\n\n## Part\n\n###### Smallest' },
};

const plain = {
  $schema: 'klebb.datafile.v1',
  meta: { id: 'plain', label: 'No emoji here', order: 2, view: { enabled: true, component: 'generic-card' } },
  data: [],
};

const d = useDashboard({ timezoneId: TZ, manifests: () => [note, plain] });

describe('accessibility details', () => {
  it('names the default chat "Open the chat" and keeps one h1 on a page with a markdown heading', async () => {
    const w = await d.open('/');
    expect(await w.page.locator('[data-chat-launcher]').getAttribute('aria-label')).toBe('Open the chat');
    const body = w.page.locator('.card[data-card-id="note"] .markdown-body');
    await body.locator('h3').waitFor();
    expect(await body.locator('h3').textContent()).toBe('Big title');
    expect(await body.locator('h4').textContent()).toBe('Part');
    expect(await body.locator('h6').textContent()).toBe('Smallest');
    expect(await w.page.locator('h1').count()).toBe(1);
  });

  it('shows no placeholder for a card without an emoji in Settings', async () => {
    const w = await d.open('/settings');
    const row = w.page.locator('li', { hasText: 'No emoji here' }).first();
    await row.waitFor();
    expect(((await row.locator('.setting-emoji').textContent()) ?? '').trim()).toBe('');
    expect(
      (
        (await w.page.locator('li', { hasText: 'A note' }).first().locator('.setting-emoji').textContent()) ??
        ''
      ).trim(),
    ).toBe('📝');
  });
});

describe('the top bar', () => {
  it('has one theme switch, and the logo goes to Today without changing the theme', async () => {
    const w = await d.open('/settings');
    const { page } = w;
    await page.locator('.setting-emoji').first().waitFor();
    expect(await page.getByRole('button', { name: /Switch to the (dark|light) theme/ }).count()).toBe(1);
    const theme = () => page.evaluate(() => document.documentElement.getAttribute('data-theme'));
    const before = await theme();
    await page.locator('.brand-mark').click();
    await page.waitForURL((u) => u.pathname === '/');
    expect(await theme()).toBe(before);
  });
});

describe('the keyboard', () => {
  it('reaches "Skip to the content" first, which moves the focus into the page past the bar', async () => {
    const w = await d.open('/settings');
    const { page } = w;
    await page.locator('.setting-emoji').first().waitFor();
    const active = () =>
      page.evaluate(() => {
        const e = document.activeElement as HTMLElement | null;
        return { text: e?.textContent?.trim() ?? '', inMain: !!e?.closest('main'), id: e?.id ?? '' };
      });
    const skip = page.getByRole('link', { name: 'Skip to the content' });
    const width = async () => (await skip.boundingBox())?.width ?? 0;
    expect(await width()).toBeLessThanOrEqual(1);
    await page.keyboard.press('Tab');
    expect((await active()).text).toBe('Skip to the content');
    expect(await width()).toBeGreaterThan(40);
    await page.keyboard.press('Enter');
    expect(await active()).toMatchObject({ id: 'main' });
    expect(new URL(page.url()).pathname).toBe('/settings');
    await page.keyboard.press('Tab');
    expect((await active()).inMain).toBe(true);
  });
});
