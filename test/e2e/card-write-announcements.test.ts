/**
 * What a screen reader hears after a write from a card, in Chromium against the real server. The
 * form went away and the card showed the new value, which nothing read out, so a save could not
 * be told from a Cancel, nor a removal from a slip of the finger. Each card now says it in a polite
 * status line: "Saved the new entry of …", "Deleted the entry of …", "Added …", "Changed to …",
 * "Removed …".
 */
import { describe, expect, it } from 'vitest';
import { todayIn } from '../../src/common/dates.js';
import { listCard, numberCard } from './card-manifests.js';
import { cardOf, useDashboard } from './entry-support.js';

const TZ = 'Europe/Berlin';
const today = () => todayIn(TZ);

const d = useDashboard({
  timezoneId: TZ,
  manifests: () => [
    numberCard('temps', 'Temperatures', { key: 'c', label: 'Degrees' }, { order: 1, maxReadingsPerDay: 3 }),
    listCard('todo', 'Shopping', { order: 2, data: [{ item: 'Bread' }] }),
  ],
});

/** The card's status line, as a screen reader reads it (without the repeat marker). */
const heard = (card: ReturnType<typeof cardOf>) =>
  card
    .getByRole('status')
    .allTextContents()
    .then((ts) => ts.map((t) => t.replace(/\u00a0$/, '')).filter((t) => t !== ''));

describe('what a card says after a write', { timeout: 120_000 }, () => {
  it('says a new entry was saved, and that an entry was deleted', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'temps');
    await card.getByRole('button', { name: 'Add entry' }).click();
    await card.getByRole('form').getByLabel('Degrees').fill('37.2');
    await card.getByRole('form').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => d.data('temps')).toEqual([{ date: today(), c: 37.2 }]);
    await expect.poll(() => heard(card)).toEqual([expect.stringMatching(/^Saved the new entry of /)]);

    await card.getByRole('button', { name: 'Edit entry 1' }).click();
    await card.getByRole('form').getByRole('button', { name: 'Delete…' }).click();
    await card.getByRole('form').getByRole('button', { name: 'Delete entry' }).click();
    await expect.poll(() => d.data('temps')).toEqual([]);
    await expect.poll(() => heard(card)).toEqual([expect.stringMatching(/^Deleted the entry of /)]);
  });

  it('says what a list added, changed and removed', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'todo');
    await card.getByRole('button', { name: 'Edit', exact: true }).click();
    await card.getByRole('button', { name: 'Add', exact: true }).click();
    await card.getByRole('form').getByLabel('Item').fill('Milk');
    await card.getByRole('form').getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => heard(card)).toEqual(['Added Milk']);

    await card.getByRole('button', { name: 'Change Bread' }).click();
    await card.getByRole('form').getByLabel('Item').fill('Rye bread');
    await card.getByRole('form').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => heard(card)).toEqual(['Changed to Rye bread']);

    await card.getByRole('button', { name: 'Remove Milk' }).click();
    await card.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect.poll(() => heard(card)).toEqual(['Removed Milk']);
    expect(((await d.data('todo')) as { item: string }[]).map((r) => r.item)).toEqual(['Rye bread']);
  });
});
