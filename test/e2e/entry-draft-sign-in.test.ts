/**
 * A new entry typed while the session ended (30 days passed, signed out in another tab, the
 * passkey removed) is not lost: its Save is refused with 401 and the page goes to the sign-in
 * page, and once signed in again with the passkey the card's form is open again with what was
 * typed, ready to save. Real server at http://localhost:<port> (WebAuthn needs a host name),
 * Debian's Chromium with the DevTools virtual authenticator.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { DESKTOP, launchBrowser, settled, type TestBrowser, type WatchedPage } from './browser.js';
import { example } from './entry-support.js';
import { addPasskeyAuthenticator } from './virtual-authenticator.js';
import { startServerWithCards } from './watched-pages.js';

const TOKEN = 'entry-draft-test-token-0123456789abcdefghij';
const TEXT =
  'Long day at work, headache from 3 pm, two coffees.\nWalked home in the rain; felt better by the evening 🌧️';

let s: TestServer;
let base: string;
let browser: TestBrowser | undefined;
let launchError: Error | undefined;
const pages: WatchedPage[] = [];

/** A new tab with a virtual platform authenticator (user verification on, resident keys). */
async function tab(): Promise<WatchedPage> {
  if (!browser) throw launchError ?? new Error('Chromium was not started');
  const w = await browser.newPage(DESKTOP);
  pages.push(w);
  await addPasskeyAuthenticator(w.page);
  return w;
}

beforeAll(async () => {
  s = await startServerWithCards([example('mood'), example('notes'), example('symptoms')], {
    env: { AGENT_API_TOKEN: TOKEN },
  });
  base = s.url.replace('127.0.0.1', 'localhost');
  try {
    browser = await launchBrowser({ timezoneId: 'Europe/Berlin' });
  } catch (err) {
    launchError = err as Error;
  }
});

afterEach(async () => {
  // the refused Save (401) is the answer this test provokes; anything else fails it
  const problems = pages.flatMap((w) => w.problems.splice(0).filter((p) => !p.includes('status of 401')));
  expect(problems, 'console errors, exceptions or failed requests in the page').toEqual([]);
});

afterAll(async () => {
  for (const w of pages.splice(0)) await w.page.close();
  await browser?.close();
  await s?.close();
});

/** Ends the session (as 30 days passing would), saves with `save`, and signs in again with the passkey. */
async function saveSignedOut(w: WatchedPage, save: () => Promise<void>): Promise<void> {
  await browser?.context.clearCookies();
  await save();
  await w.page.waitForURL(`${base}/login?next=%2F`);
  await w.page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await w.page.waitForURL(`${base}/`);
  await settled(w.page);
}

describe('a new entry when the session has ended', { timeout: 120_000 }, () => {
  // one tab for both tests: its virtual authenticator holds the passkey
  let w: WatchedPage;

  it('in the daily prompt: the prompt asks again with what was typed, and saves', async () => {
    w = await tab();
    const code = new URL(s.inst.auth.setupLink() as string).hash;
    await w.page.goto(`${base}/setup${code}`);
    await w.page.getByRole('button', { name: 'Create a passkey' }).click();
    await w.page.waitForURL(`${base}/`);
    await settled(w.page);

    const mood = w.page.getByRole('dialog', { name: 'Mood' });
    await mood.getByRole('radio', { name: '🙂 (4 of 5)' }).click();
    await mood.getByLabel('Note').fill('Slept well, long walk at lunch');
    await saveSignedOut(w, () => mood.getByRole('button', { name: 'Save' }).click());

    await mood.waitFor();
    expect(await mood.getByLabel('Note').inputValue()).toBe('Slept well, long walk at lunch');
    expect(await mood.getByRole('radio', { name: '🙂 (4 of 5)' }).getAttribute('aria-checked')).toBe('true');
    // the card's own form stays closed: the prompt's words are the prompt's
    expect(await w.page.locator('main .card[data-card-id="mood"] form.entry-form').count()).toBe(0);
    await mood.getByRole('button', { name: 'Save' }).click();
    await mood.waitFor({ state: 'detached' });
    const after = await s.api('/api/manifests/mood/data', { token: TOKEN });
    expect(after.body.data).toEqual([
      expect.objectContaining({ mood: 4, note: 'Slept well, long walk at lunch' }),
    ]);
  });

  it('is open again with what was typed after signing in, and saves', async () => {
    const card = w.page.locator('main .card[data-card-id="notes"]');
    await card.getByRole('button', { name: 'Add entry' }).click();
    const form = card.locator('form.entry-form');
    await form.locator('textarea').fill(TEXT);
    await form.getByRole('button', { name: 'health' }).click();

    // the session ends while the form is open
    await saveSignedOut(w, () => form.getByRole('button', { name: 'Save' }).click());

    await form.waitFor();
    expect(await form.locator('textarea').inputValue()).toBe(TEXT);
    expect(await form.getByRole('button', { name: 'health' }).getAttribute('aria-pressed')).toBe('true');
    expect(await form.getByRole('status').textContent()).toContain('what you typed is back');
    const before = await s.api('/api/manifests/notes/data', { token: TOKEN });
    expect(before.body.data).toEqual([]);

    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    const after = await s.api('/api/manifests/notes/data', { token: TOKEN });
    expect(after.body.data).toEqual([expect.objectContaining({ text: TEXT, tags: ['health'] })]);

    // taken back once: the page opened again shows the card without a form
    await w.page.reload();
    await settled(w.page);
    await card.getByRole('button', { name: 'Add another' }).waitFor();
    expect(await card.locator('form.entry-form').count()).toBe(0);
  });

  it('an addition to a list card likewise', async () => {
    const card = w.page.locator('main .card[data-card-id="symptoms"]');
    await card.getByRole('button', { name: 'Edit' }).click();
    await card.getByRole('button', { name: 'Add', exact: true }).click();
    const form = card.locator('form.entry-form');
    await form.getByRole('textbox').first().fill('Sore left knee');
    await form.locator('textarea').fill('Worse on the stairs, better after ice');

    await saveSignedOut(w, () => form.getByRole('button', { name: 'Add', exact: true }).click());

    await form.waitFor();
    expect(await form.getByRole('textbox').first().inputValue()).toBe('Sore left knee');
    expect(await form.locator('textarea').inputValue()).toBe('Worse on the stairs, better after ice');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await form.waitFor({ state: 'detached' });
    const after = await s.api('/api/manifests/symptoms/data', { token: TOKEN });
    expect(after.body.data).toEqual([
      expect.objectContaining({ symptom: 'Sore left knee', note: 'Worse on the stairs, better after ice' }),
    ]);
  });
});
