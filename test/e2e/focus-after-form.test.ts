/**
 * Where the keyboard's focus goes when a card's entry form closes, in Chromium against the real
 * server. The form replaces the button that opened it, so when it closed (saved, cancelled,
 * Escape, deleted) the focus fell to the page itself: a keyboard or screen-reader user was sent
 * back to the top of the page and had to Tab through every card again. The focus now goes back to
 * the button that opened the form when it is still there (a list's Change), else to the card's
 * own button that took its place (Add entry became Edit entry). Delete… and its confirmation pass
 * the focus between them likewise, as do a list item's Remove and its confirmation; a removed
 * item hands the focus to the next one.
 */
import { describe, expect, it } from 'vitest';
import { todayIn } from '../../src/common/dates.js';
import { listCard, numberCard } from './card-manifests.js';
import { cardOf, useDashboard } from './entry-support.js';
import { focusedInCard } from './focus.js';

const TZ = 'Europe/Berlin';
const today = () => todayIn(TZ);

const d = useDashboard({
  timezoneId: TZ,
  manifests: () => [
    numberCard('taps', 'Taps', { key: 'count', label: 'Count' }, { order: 1 }),
    numberCard(
      'temps',
      'Temperatures',
      { key: 'c', label: 'Degrees' },
      { order: 2, maxReadingsPerDay: 3, data: [{ date: today(), c: 37.2 }] },
    ),
    listCard('todo', 'Shopping', { order: 3, data: [{ item: 'Bread' }] }),
  ],
});

describe('focus after a card form closes', { timeout: 120_000 }, () => {
  it('goes back to Add entry after Cancel and after Escape', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'taps');
    const add = card.getByRole('button', { name: 'Add entry' });
    await add.focus();
    await w.page.keyboard.press('Enter');
    await card.getByRole('form').getByLabel('Count').waitFor();
    await card.getByRole('form').getByRole('button', { name: 'Cancel' }).focus();
    await w.page.keyboard.press('Enter');
    await expect.poll(() => card.getByRole('form').count()).toBe(0);
    await expect.poll(() => focusedInCard(w)).toEqual({ card: 'taps', name: 'Add entry' });

    await w.page.keyboard.press('Enter');
    await card.getByRole('form').getByLabel('Count').waitFor();
    await w.page.keyboard.press('Escape');
    await expect.poll(() => card.getByRole('form').count()).toBe(0);
    await expect.poll(() => focusedInCard(w)).toEqual({ card: 'taps', name: 'Add entry' });
  });

  it('goes to the button that took the opener’s place after a save (Add entry became Edit entry)', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'taps');
    await card.getByRole('button', { name: 'Add entry' }).focus();
    await w.page.keyboard.press('Enter');
    const field = card.getByRole('form').getByLabel('Count');
    await field.waitFor();
    await field.fill('4');
    await w.page.keyboard.press('Enter');
    await expect.poll(() => card.getByRole('form').count()).toBe(0);
    expect(await d.data('taps')).toEqual([{ date: today(), count: 4 }]);
    await expect.poll(() => focusedInCard(w)).toEqual({ card: 'taps', name: 'Edit entry' });
  });

  it('goes back to the entry’s own Edit button after editing it, and to Add entry after deleting it', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'temps');
    await card.getByRole('button', { name: 'Edit entry 1' }).focus();
    await w.page.keyboard.press('Enter');
    const field = card.getByRole('form').getByLabel('Degrees');
    await field.waitFor();
    await field.fill('37.4');
    await w.page.keyboard.press('Enter');
    await expect.poll(() => card.getByRole('form').count()).toBe(0);
    await expect.poll(() => focusedInCard(w)).toEqual({ card: 'temps', name: 'Edit entry 1' });

    await w.page.keyboard.press('Enter');
    await card.getByRole('form').getByLabel('Degrees').waitFor();
    await card.getByRole('form').getByRole('button', { name: 'Delete…' }).focus();
    await w.page.keyboard.press('Enter');
    // the confirmation takes Delete…'s place: the focus is on its safe choice, not on the page
    await expect.poll(() => focusedInCard(w)).toEqual({ card: 'temps', name: 'Keep' });
    await w.page.keyboard.press('Shift+Tab');
    expect(await focusedInCard(w)).toEqual({ card: 'temps', name: 'Delete entry' });
    await w.page.keyboard.press('Enter');
    await expect.poll(() => card.getByRole('form').count()).toBe(0);
    await expect.poll(() => d.data('temps')).toEqual([]);
    await expect.poll(() => focusedInCard(w)).toEqual({ card: 'temps', name: 'Add entry' });
  });

  it('goes back to a list item’s Change button after changing it', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'todo');
    await card.getByRole('button', { name: 'Edit', exact: true }).click();
    const change = card.getByRole('button', { name: /^Change/ }).first();
    await change.focus();
    await w.page.keyboard.press('Enter');
    const field = card.getByRole('form').getByLabel('Item');
    await field.waitFor();
    await field.fill('Rye bread');
    await w.page.keyboard.press('Enter');
    await expect.poll(() => card.getByRole('form').count()).toBe(0);
    await expect.poll(() => d.data('todo')).toEqual([{ item: 'Rye bread' }]);
    // the row's button is named after its item, which the change renamed
    await expect.poll(() => focusedInCard(w)).toEqual({ card: 'todo', name: 'Change Rye bread' });
  });

  it('keeps the focus through a list item’s Remove, its confirmation and the removal', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'todo');
    await card.getByRole('button', { name: 'Edit', exact: true }).click();
    await card.getByRole('button', { name: 'Add', exact: true }).click();
    await card.getByRole('form').getByLabel('Item').fill('Milk');
    await card.getByRole('form').getByRole('button', { name: 'Add', exact: true }).click();
    await card.getByRole('button', { name: 'Remove Milk' }).waitFor();
    const items = async () => ((await d.data('todo')) as { item: string }[]).map((r) => r.item);
    const [firstItem] = await items();

    await card.getByRole('button', { name: `Remove ${firstItem}` }).focus();
    await w.page.keyboard.press('Enter');
    await expect.poll(() => focusedInCard(w)).toEqual({ card: 'todo', name: 'Keep' });
    await w.page.keyboard.press('Enter');
    await expect.poll(() => focusedInCard(w)).toEqual({ card: 'todo', name: `Remove ${firstItem}` });
    await w.page.keyboard.press('Enter');
    await expect.poll(() => focusedInCard(w)).toEqual({ card: 'todo', name: 'Keep' });
    await w.page.keyboard.press('Shift+Tab');
    await w.page.keyboard.press('Enter');
    await expect.poll(items).toEqual(['Milk']);
    await expect.poll(() => focusedInCard(w)).toEqual({ card: 'todo', name: 'Remove Milk' });
  });
});
