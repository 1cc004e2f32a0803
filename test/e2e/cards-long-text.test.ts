/**
 * Long text in a card's frame and body on a 390 px phone (Chromium, real server):
 * - an emoji of eight unicorns is clipped to about two emoji, so the label keeps the width;
 * - a 500-character secondary line without `truncate` is clamped to a few lines, its full text in
 *   the `title` attribute;
 * - a label far longer than the app lets anyone type (a file edited by hand) keeps to three lines,
 *   its full text in the `title` attribute.
 */
import { describe, expect, it } from 'vitest';
import { todayIn } from '../../src/common/dates.js';
import { PHONE, screenshot, scrollsSideways } from './browser.js';
import { cardOf, useDashboard } from './entry-support.js';

const TZ = 'Europe/Berlin';
const NOTE = `${'A long note about the day, written without any care for its length. '.repeat(8)}End.`;

const journal = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'journal',
    label: 'Journal of the day',
    emoji: '🦄🦄🦄🦄🦄🦄🦄🦄',
    order: 1,
    view: { enabled: true, component: 'generic-card', display: { template: '{mood}', secondary: '{note}' } },
  },
  data: [{ date: todayIn(TZ), mood: 'Calm', note: NOTE }],
};

const LABEL = `Blood pressure ${'and a great deal more said about it '.repeat(40)}end`;

const wordy = {
  $schema: 'klebb.datafile.v1',
  meta: { id: 'wordy', label: LABEL, order: 2, view: { enabled: true, component: 'generic-card' } },
  data: [],
};

const d = useDashboard({ timezoneId: TZ, manifests: () => [journal, wordy] });

describe('long text in a card on a phone', () => {
  it('clips a long emoji and clamps a long secondary line, keeping its full text', async () => {
    const w = await d.open('/', PHONE);
    const card = cardOf(w, 'journal');
    await card.locator('.gc-secondary').waitFor();
    await screenshot(w.page, 'cards-long-text-phone');
    const emoji = await card.locator('.card-emoji').boundingBox();
    const label = await card.locator('.card-label').boundingBox();
    const head = await card.locator('.card-head').boundingBox();
    if (!emoji || !label || !head) throw new Error('the card head is not drawn');
    // two unicorns at 22 px are about 60 px: the rest is clipped, the label keeps most of the row
    expect(emoji.width).toBeLessThanOrEqual(64);
    expect(label.width).toBeGreaterThan(head.width / 2);
    const secondary = card.locator('.gc-secondary');
    expect(await secondary.getAttribute('title')).toBe(NOTE);
    const box = await secondary.boundingBox();
    const lineHeight = await secondary.evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight));
    expect(box?.height ?? 0).toBeLessThanOrEqual(lineHeight * 3 + 1);
    expect(await scrollsSideways(w.page)).toBe(false);
  });

  it('keeps a label longer than anyone can type to three lines, its full text in the title', async () => {
    const w = await d.open('/', PHONE);
    const label = cardOf(w, 'wordy').locator('.card-label');
    await label.waitFor();
    expect(await label.getAttribute('title')).toBe(LABEL);
    const box = await label.boundingBox();
    const lineHeight = await label.evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight));
    expect(box?.height ?? 0).toBeLessThanOrEqual(lineHeight * 3 + 1);
    expect(await scrollsSideways(w.page)).toBe(false);
  });
});
