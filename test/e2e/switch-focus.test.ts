/**
 * Switching a card on or off in Settings with the keyboard keeps the focus on its switch, in
 * Chromium against the real server. The switch was disabled while the change was saved, and a
 * focused control that is disabled loses the focus to the page: a keyboard or screen-reader user
 * who hid one card was sent back to the top of the page and had to Tab through the settings again
 * to reach the next one. The switch now keeps the focus through the save and the next Tab goes on
 * to the next card's switch; the card's file records the change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDashboard } from './entry-support.js';
import { focusedName } from './focus.js';

/** `expect.poll` with room to wait on a loaded machine (its default gives up after one second). */
const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 50 });

const card = (id: string, label: string, order: number) => ({
  $schema: 'klebb.datafile.v1',
  meta: {
    id,
    label,
    order,
    view: { enabled: true, component: 'generic-card', display: { template: '{kg|–}' } },
  },
  data: [],
});

const d = useDashboard({
  timezoneId: 'Europe/Berlin',
  manifests: () => [card('weight', 'Weight', 1), card('steps', 'Steps', 2)],
});

const enabledOnDisk = (id: string) =>
  JSON.parse(fs.readFileSync(path.join(d.s.dataDir, `${id}.json`), 'utf8')).meta.enabled;

describe('the focus after switching a card on or off in Settings', { timeout: 120_000 }, () => {
  it('stays on the switch through the save, and Tab goes on to the next card', async () => {
    const w = await d.open('/settings');
    const show = w.page.getByRole('switch', { name: 'Show Weight' });
    await show.focus();
    await w.page.keyboard.press('Space');
    await eventually(() => enabledOnDisk('weight')).toBe(false);
    await eventually(() => show.getAttribute('aria-disabled')).toBe(null);
    expect(await show.getAttribute('aria-checked')).toBe('false');
    expect(await focusedName(w)).toBe('Show Weight');
    await w.page.keyboard.press('Space');
    await eventually(() => enabledOnDisk('weight')).toBe(true);
    expect(await focusedName(w)).toBe('Show Weight');
    await w.page.keyboard.press('Tab');
    expect(await focusedName(w)).toBe('Show Steps');
  });
});
