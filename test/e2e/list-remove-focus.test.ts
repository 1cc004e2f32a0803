/**
 * A list's Remove confirmation that the server refuses (the list changed on another device since
 * this page read it: 412) keeps the keyboard's focus on Remove, in Chromium against the real
 * server. Remove was disabled while the removal was sent, and a focused button that is disabled
 * drops the focus to the page: a keyboard or screen-reader user heard the refusal and was left at
 * the top of the page. Now it is aria-disabled while busy (presses ignored) and keeps the focus.
 */
import { describe, expect, it } from 'vitest';
import { cardOf, example, useDashboard } from './entry-support.js';
import { focusedName } from './focus.js';

const d = useDashboard({
  timezoneId: 'Europe/Berlin',
  manifests: () => {
    const list = example('symptoms');
    list.data = [{ symptom: 'Headache' }, { symptom: 'Sore knee' }];
    return [list];
  },
});

describe('the focus after a refused removal', { timeout: 120_000 }, () => {
  it('stays on Remove when the list changed on another device', async () => {
    const w = await d.open('/');
    d.expectRefusals(w, [412]);
    // a tab that hears no live updates (a laptop asleep, a dropped stream) keeps the list it read
    await w.page.route('**/api/events', (route) =>
      route.fulfill({ status: 200, contentType: 'text/event-stream', body: ': quiet\n\n' }),
    );
    await w.page.reload();
    const card = cardOf(w, 'symptoms');
    await card.locator('.lc-primary', { hasText: 'Sore knee' }).waitFor();
    await card.getByRole('button', { name: 'Edit' }).click();
    await card.getByRole('button', { name: 'Remove Sore knee' }).click();

    // another device adds a symptom: the list this page read is no longer the server's
    const other = await d.s.api('/api/manifests/symptoms/rows', { json: { value: { symptom: 'Cough' } } });
    expect(other.status, other.text).toBe(201);

    await card.getByRole('button', { name: 'Remove', exact: true }).focus();
    await w.page.keyboard.press('Enter');
    await card.getByRole('alert').filter({ hasText: 'The list changed meanwhile' }).waitFor();
    expect(await focusedName(w)).toBe('Remove');
    expect(((await d.data('symptoms')) as { symptom: string }[]).map((r) => r.symptom)).toEqual([
      'Headache',
      'Sore knee',
      'Cough',
    ]);
  });
});
