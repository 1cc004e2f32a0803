/**
 * Settings › History's Undo in Chromium against the real server, for a keyboard and a screen
 * reader: each Undo button says which change it undoes (twenty buttons all called "Undo" could
 * not be told apart in a list of buttons), an undo is announced when it is done, and the
 * focus, whose button the undo replaced, goes to that announcement instead of falling to the top
 * of the page. A double click undoes once (the second undo was refused as already undone and its
 * refusal shown as if the undo had failed).
 */
import { describe, expect, it } from 'vitest';
import { todayIn } from '../../src/common/dates.js';
import type { WatchedPage } from './browser.js';
import { numberCard } from './card-manifests.js';
import { useDashboard } from './entry-support.js';

const TZ = 'Europe/Berlin';
const TOKEN = 'history-undo-token-0123456789abcdef';

const d = useDashboard({
  timezoneId: TZ,
  env: { AGENT_API_TOKEN: TOKEN },
  manifests: () => [
    numberCard('taps', 'Taps', { key: 'count', label: 'Count' }),
    numberCard('sips', 'Sips', { key: 'count', label: 'Count' }),
  ],
});

/** Appends a row over the REST API: one change set each. */
async function append(id: string, count: number) {
  const r = await d.s.api(`/api/manifests/${id}/rows`, {
    method: 'POST',
    token: TOKEN,
    json: { value: { date: todayIn(TZ), count } },
  });
  expect(r.status, r.text).toBeLessThan(300);
}

const panel = (w: WatchedPage) => w.page.locator('section[aria-labelledby="settings-history"]');

describe('Settings › History undo', { timeout: 120_000 }, () => {
  it('names each Undo by its change, announces the undo, keeps the focus there and undoes once on a double click', async () => {
    await append('taps', 1);
    await append('sips', 2);
    const w = await d.open('/settings');
    const history = panel(w);
    await history.locator('li').first().waitFor();
    const names = await history
      .getByRole('button', { name: /^Undo/ })
      .evaluateAll((bs) => bs.map((b) => (b.getAttribute('aria-label') ?? b.textContent ?? '').trim()));
    expect(names.length).toBeGreaterThanOrEqual(2);
    // every button says what it undoes: no two the same
    expect(new Set(names).size).toBe(names.length);
    expect(names.every((n) => n.startsWith('Undo ') && n.length > 'Undo '.length)).toBe(true);

    const posts: string[] = [];
    w.page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/undo')) posts.push(r.url());
    });
    const newest = history.getByRole('button', { name: /^Undo/ }).first();
    const undone = (await newest.getAttribute('aria-label')) ?? '';
    await newest.focus();
    // two presses in the same tick, before the page re-renders
    await newest.evaluate((b: HTMLButtonElement) => {
      b.click();
      b.click();
    });
    const status = history.getByRole('status');
    await expect.poll(() => status.textContent()).toBe(`Undone: ${undone.slice('Undo '.length)}`);
    expect(posts).toHaveLength(1);
    expect(await history.getByRole('alert').count()).toBe(0);
    await expect
      .poll(() =>
        w.page.evaluate(() => {
          const el = document.activeElement;
          return el?.getAttribute('role') ?? el?.tagName ?? null;
        }),
      )
      .toBe('status');
    expect(await d.data('sips')).toEqual([]);
    expect(await d.data('taps')).toEqual([{ date: todayIn(TZ), count: 1 }]);
  });
  it('two changes with the same summary get Undo names told apart by their time', async () => {
    await append('taps', 7);
    await append('taps', 7);
    const w = await d.open('/settings');
    const history = panel(w);
    await history.locator('li').first().waitFor();
    const rows = await history.locator('li').evaluateAll((lis) =>
      lis.map((li) => ({
        summary: li.querySelector('span')?.textContent ?? '',
        when: li.querySelector('small')?.textContent ?? '',
        name: li.querySelector('button')?.getAttribute('aria-label') ?? null,
      })),
    );
    const [a, b] = rows;
    // the two newest are the two appends, with one summary
    expect(a.summary).toBe(b.summary);
    expect(a.name).not.toBeNull();
    expect(b.name).not.toBeNull();
    expect(a.name).not.toBe(b.name);
    const names = rows.flatMap((r) => (r.name === null ? [] : [r.name]));
    expect(new Set(names).size).toBe(names.length);
    // each repeated name carries the time its row shows
    for (const r of [a, b]) {
      expect(r.name?.startsWith(`Undo ${r.summary}, `)).toBe(true);
      const time = (r.name ?? '').slice(`Undo ${r.summary}, `.length).replace(/ \(\d+ of \d+\)$/, '');
      expect(r.when).toContain(time);
    }
  });
});
