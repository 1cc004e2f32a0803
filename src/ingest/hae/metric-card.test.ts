import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateForCreate } from '../../cards/validate-manifest.js';
import { cardReads } from '../../common/card-reads.js';
import { renderTemplate } from '../../common/display-template.js';
import { projectRoot } from '../../home/project-root.js';
import { cardFitProblems, staticFitProblems } from './card-fit.js';
import { CATALOGUE, isKnownMetric, resolveMetric } from './format/catalogue.js';
import { metricCard } from './metric-card.js';

const templates = path.join(projectRoot(), 'templates');

describe('metricCard (Add a card)', () => {
  it.each(CATALOGUE.map((e) => e.key))('%s: a card that is valid and reads what the metric sends', (key) => {
    const { manifest } = metricCard(key, templates, () => false);
    const v = validateForCreate(manifest, { isKnownMetric });
    expect([...v.malformed, ...v.invalid]).toEqual([]);
    expect(staticFitProblems(manifest.meta)).toEqual([]);
    // the headline reads a field of the row (a built card always shows something)
    expect(cardReads(manifest.meta).length).toBeGreaterThan(0);
    expect(manifest.meta.ingest).toEqual({ source: 'hae', metric: key });
  });

  it('takes the template made for the metric (aliases count), else builds one', () => {
    expect(metricCard('step_count', templates, () => false).template).toBe('steps');
    expect(metricCard('Apple Exercise Time', templates, () => false).template).toBe('active-minutes');
    expect(metricCard('heart_rate_variability', templates, () => false).template).toBe('resting-hrv');
    expect(metricCard('body_mass', templates, () => false).template).toBe('weight');
    expect(metricCard('weight_body_mass', templates, () => false).manifest.meta.label).toBe('Body weight');
    expect(metricCard('sleep_analysis', templates, () => false).template).toBe('sleep-hours');
    expect(metricCard('blood_oxygen_saturation', templates, () => false).template).toBe('spo2');
    expect(metricCard('walking_speed', templates, () => false).template).toBeNull();
    expect(metricCard('walking_speed', templates, () => false).manifest.meta.label).toBe('Walking speed');
  });

  it('every template that declares a phone metric reads only what that metric sends', () => {
    const declared = readdirSync(templates)
      .filter((n) => n.endsWith('.json'))
      .map((n) => JSON.parse(readFileSync(path.join(templates, n), 'utf8')) as { meta: { ingest?: unknown } })
      .filter((t) => t.meta.ingest !== undefined);
    expect(declared.length).toBeGreaterThanOrEqual(10);
    expect(declared.flatMap((t) => staticFitProblems(t.meta).map((p) => p.message))).toEqual([]);
  });

  it.each([
    ['ecg', { date: '2026-12-04', atrialFibrillation: 1 }, /1 atrial fibrillation/],
    ['ovulation_test', { date: '2026-12-04', negative: 2 }, /2 negative/],
    ['pregnancy_test', { date: '2026-12-04', negative: 1 }, /1 negative/],
    ['progesterone_test', { date: '2026-12-04', indeterminate: 1 }, /1 indeterminate/],
    ['medications', { date: '2026-12-04', skipped: 1 }, /1 skipped/],
  ])('%s: a day with only a later outcome shows it on the card and its chart', (key, row, shown) => {
    // rows carry only the outcomes that occurred, so a card reading the first one alone would show
    // a day of only atrial fibrillation, or only negative tests, as empty
    const meta = metricCard(key, templates, () => false).manifest.meta as unknown as {
      view: { display: { template: string } };
      trends: { series: { field: string }[] };
    };
    const headline = renderTemplate(meta.view.display.template, row);
    expect(headline).toMatch(shown);
    expect(headline).not.toMatch(/\{|undefined/);
    const outcomes = Object.keys(row).filter((k) => k !== 'date');
    expect(meta.trends.series.map((s) => s.field)).toEqual(expect.arrayContaining(outcomes));
  });

  it.each([
    ['ecg', [{ date: '2026-12-04', atrialFibrillation: 1 }]],
    ['pregnancy_test', [{ date: '2026-12-04', negative: 1 }]],
    [
      'ovulation_test',
      [
        { date: '2026-12-04', negative: 1 },
        { date: '2026-12-05', positive: 1 },
      ],
    ],
    ['medications', [{ date: '2026-12-04', skipped: 1 }]],
  ])('%s: outcomes that did not occur lately are not taken for fields the phone never sends', (key, rows) => {
    // a row counts only what happened that day: no negative pregnancy test lately is no misfit
    const { manifest } = metricCard(key, templates, () => false);
    expect(cardFitProblems(manifest.meta, rows)).toEqual([]);
    // nor for a card of one's own reading the last outcome without a fallback
    const fields = resolveMetric(key)?.fields.map((f) => f.name) ?? [];
    const display = { template: `{${fields.at(-1)}}` };
    const handMade = { ...manifest.meta, view: { component: 'generic-card', display } };
    expect(cardFitProblems(handMade, [{ date: '2026-12-04', [fields[0]]: 1 }])).toEqual([]);
  });

  it('cervical mucus: the card names the mucus seen, not its number on the 1 to 5 scale', () => {
    const meta = metricCard('cervical_mucus_quality', templates, () => false).manifest.meta as unknown as {
      view: { display: { template: string; emojiMap?: Record<string, unknown> } };
    };
    const { template, emojiMap } = meta.view.display;
    const shown = [1, 2, 3, 4, 5].map((quality) =>
      renderTemplate(template, { date: '2026-12-04', quality }, { emojiMap }),
    );
    expect(shown).toEqual(['dry', 'sticky', 'creamy', 'watery', 'egg white']);
  });

  it('picks a free id', () => {
    const taken = new Set(['steps', 'steps-2']);
    expect(metricCard('step_count', templates, (id) => taken.has(id)).manifest.meta.id).toBe('steps-3');
  });

  it('refuses a metric the catalogue does not know, naming the field', () => {
    expect(() => metricCard('steps', templates, () => false)).toThrow(
      expect.objectContaining({ status: 422, details: [expect.objectContaining({ path: 'body.metric' })] }),
    );
  });
});

describe('cardReads', () => {
  it('marks placeholders with a fallback or yes/no text as optional, and reads every place', () => {
    const reads = cardReads({
      view: {
        component: 'generic-card',
        display: {
          template: '{kg:round(1)} {note|}',
          secondary: '{done?Yes:No}',
          primary: 'latest.bp.systolic',
          thresholds: [{ ifField: 'kg' }, { colour: 'red' }],
          trendArrow: { field: 'kg' },
        },
      },
      trends: { component: 'line-chart', series: ['kg', { field: 'fat' }] },
    });
    expect(reads.map((r) => [r.field, r.where, r.optional])).toEqual([
      ['kg', 'meta.view.display.template', false],
      ['note', 'meta.view.display.template', true],
      ['done', 'meta.view.display.secondary', true],
      ['bp', 'meta.view.display.primary', false],
      ['kg', 'meta.view.display.thresholds.0', false],
      ['kg', 'meta.view.display.trendArrow.field', false],
      ['kg', 'meta.trends.series.0', false],
      ['fat', 'meta.trends.series.1', false],
    ]);
  });
});
