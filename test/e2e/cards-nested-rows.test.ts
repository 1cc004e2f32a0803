/**
 * A card whose data is one object holding its rows (a blood panel: `{lab, categories: [{name,
 * findings: [...]}]}`, as the older app's reports wrote it) is listed by list-card and table-list
 * in Chromium, each finding with its category, instead of "this card's data is not a list".
 */
import { describe, expect, it } from 'vitest';
import { settled } from './browser.js';
import { cardOf, useDashboard } from './entry-support.js';

const d = useDashboard({
  timezoneId: 'Europe/Berlin',
  manifests: () => [
    {
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'blood-panel',
        label: 'Blood panel',
        view: {
          enabled: true,
          component: 'list-card',
          display: { primaryField: 'label', secondaryTemplate: '{value} {unit} ({category})' },
        },
        reports: { enabled: true, component: 'table-list' },
        writeable: { fromWebapp: false },
      },
      data: {
        collected: '2026-04-01',
        lab: 'DemoLabs',
        categories: [
          {
            name: 'Lipids',
            findings: [
              { label: 'HDL', value: '1.5', unit: 'mmol/L' },
              { label: 'LDL', value: '2.7', unit: 'mmol/L' },
            ],
          },
          { name: 'Liver', findings: [{ label: 'ALT', value: '28', unit: 'U/L' }] },
        ],
      },
    },
  ],
});

describe('rows inside an object', { timeout: 60_000 }, () => {
  it('are listed on Today and tabled on Reports, with their category', async () => {
    const w = await d.open('/');
    const list = cardOf(w, 'blood-panel');
    await list.locator('.lc-item').first().waitFor();
    expect(await list.locator('.lc-primary').allTextContents()).toEqual(['HDL', 'LDL', 'ALT']);
    expect(await list.locator('.lc-secondary').allTextContents()).toEqual([
      '1.5 mmol/L (Lipids)',
      '2.7 mmol/L (Lipids)',
      '28 U/L (Liver)',
    ]);
    await w.page.goto(`${d.s.url}/reports`);
    await settled(w.page);
    const table = cardOf(w, 'blood-panel').locator('table');
    await table.waitFor();
    expect(await table.locator('th').allTextContents()).toEqual(['category', 'label', 'value', 'unit']);
    expect(await table.locator('tbody tr').count()).toBe(3);
  });
});
