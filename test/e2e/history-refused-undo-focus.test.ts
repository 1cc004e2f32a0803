/**
 * Settings › History: an undo Klebb refuses (the row was changed again since) leaves the keyboard's
 * focus on the Undo button that was pressed, in Chromium against the real server. Every Undo was
 * disabled while an undo ran, and a focused button that is disabled drops the focus to the page:
 * a keyboard or screen-reader user heard the refusal and was left at the top of the page, away
 * from the list they were working through. The refusal is shown and nothing changes.
 */
import { describe, expect, it } from 'vitest';
import { todayIn } from '../../src/common/dates.js';
import { useDashboard } from './entry-support.js';
import { focusedName } from './focus.js';

const TZ = 'Europe/Berlin';
const TOKEN = 'history-refused-undo-token-0123456789';

const d = useDashboard({
  timezoneId: TZ,
  env: { AGENT_API_TOKEN: TOKEN },
  manifests: () => [
    {
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'taps',
        label: 'Taps',
        view: { enabled: true, component: 'generic-card', display: { template: '{count|–}' } },
        writeable: { fromWebapp: true, inputs: [{ key: 'count', type: 'number', label: 'Count' }] },
      },
      data: [],
    },
  ],
});

const api = (p: string, init: Parameters<typeof d.s.api>[1]) => d.s.api(p, { token: TOKEN, ...init });

describe('a refused undo in Settings › History', { timeout: 120_000 }, () => {
  it('keeps the focus on the Undo pressed', async () => {
    const add = await api('/api/manifests/taps/rows', { json: { value: { date: todayIn(TZ), count: 1 } } });
    expect(add.status, add.text).toBe(201);
    const addSet = (await api('/api/changes?limit=1', {})).body.changeSets[0].id as number;
    const edit = await api('/api/manifests/taps/rows', {
      method: 'PATCH',
      json: { path: `[date="${todayIn(TZ)}"]`, changes: { count: 5 } },
    });
    expect(edit.status, edit.text).toBe(200);

    const w = await d.open('/settings');
    d.expectRefusals(w, [409]);
    const button = w.page.locator(`li[data-change-set="${addSet}"] button`);
    const name = (await button.getAttribute('aria-label')) ?? '';
    await button.focus();
    await w.page.keyboard.press('Enter');
    await w.page.locator('section[aria-labelledby="settings-history"] [role="alert"]').waitFor();
    expect(await focusedName(w)).toBe(name);
    expect(await d.data('taps')).toEqual([{ date: todayIn(TZ), count: 5 }]);
  });
});
