/**
 * "Fill <card> from the phone" (docs/HEALTH-AUTO-EXPORT.md "A card you already have"): a metric
 * the phone sends that an existing card already shows (a Body weight card made from the gallery)
 * is offered to that card instead of a second, plain one; connecting fills it at once from what
 * was received, keeps the days entered by hand, and makes no second card. Bad input is a 4xx
 * naming the field.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { templateText } from '../helpers/templates.js';
import { haeBytes, type IngestServer, startIngestServer } from './helpers.js';

/** Ten weigh-ins from 2023-03-01 (82.4 kg) to 2023-03-28 (81.05 kg), plus steps and more. */
const MAR2023 = 'generated-2023-v1-kg.json';

let s: IngestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** The gallery's Body weight card as made before templates named their phone metric, with `rows`. */
function oldWeightCard(rows: Record<string, unknown>[]): Record<string, unknown> {
  const t = JSON.parse(templateText('weight')) as { meta: Record<string, unknown> };
  const { ingest: _i, template: _t, ...meta } = t.meta;
  return { ...t, meta, data: rows };
}

interface Offered {
  metric: string;
  label: string;
  fill?: { id: string; label: string };
}
const supported = async (h: IngestServer): Promise<Offered[]> =>
  Object.values(
    (await h.api('/api/health-auto-export/discoveries')).body.undismissed.supported as Record<
      string,
      Offered[]
    >,
  ).flat();

describe('a metric the phone sends that a card already shows', () => {
  it('is offered to that card; connecting fills it from what was received, keeps hand rows of other days, makes no second card', async () => {
    const h = await startIngestServer();
    s = h;
    await h.createCard(
      oldWeightCard([
        { date: '2023-02-20', kg: 83.0, note: 'by hand, before the phone' },
        { date: '2023-03-01', kg: 82.9 },
      ]),
    );
    expect((await h.push(haeBytes(MAR2023))).status).toBe(200);
    const weight = (await supported(h)).find((d) => d.metric === 'weight_body_mass');
    expect(weight).toEqual(
      expect.objectContaining({ label: 'Body weight', fill: { id: 'weight', label: 'Body weight' } }),
    );
    // readable names for the others too, never the key in words
    const labels = (await supported(h)).map((d) => d.label);
    expect(labels).toContain('Steps');
    expect(labels).not.toContain('Step count');

    const r = await h.api('/api/health-auto-export/cards', {
      json: { metric: 'weight_body_mass', card: 'weight' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      ok: true,
      id: 'weight',
      label: 'Body weight',
      metric: 'weight_body_mass',
    });
    const rows = await h.rows('weight');
    // the ten phone days, plus the hand day the phone does not have; one row a day
    expect(rows).toHaveLength(11);
    expect(rows[0]).toEqual({ date: '2023-02-20', kg: 83.0, note: 'by hand, before the phone' });
    expect(rows[1]).toEqual({ date: '2023-03-01', kg: 82.4 });
    expect(new Set(rows.map((x) => x.date)).size).toBe(11);
    expect(r.body.rowCount).toBe(11);
    // no second card, and the metric is no longer new
    const ids = ((await h.api('/api/settings/cards')).body.cards as { id: string }[]).map((c) => c.id);
    expect(ids.filter((id) => id.startsWith('weight'))).toEqual(['weight']);
    expect((await supported(h)).map((d) => d.metric)).not.toContain('weight_body_mass');
    // connecting again changes nothing
    const again = await h.api('/api/health-auto-export/cards', {
      json: { metric: 'body_mass', card: 'weight' },
    });
    expect(again.status).toBe(200);
    expect(again.body.changed).toBe(false);
    expect(await h.rows('weight')).toEqual(rows);
  });

  it('refuses bad input with a 4xx naming the field, and changes nothing', async () => {
    const h = await startIngestServer({ cards: [['daily-steps', 'step_count']] });
    s = h;
    await h.createCard(oldWeightCard([{ date: '2023-02-20', kg: 83 }]));
    await h.push(haeBytes(MAR2023));
    const noCard = await h.api('/api/health-auto-export/cards', {
      json: { metric: 'weight_body_mass', card: 'nope' },
    });
    expect(noCard.status).toBe(404);
    expect(noCard.body.details[0].path).toBe('body.card');
    const noMetric = await h.api('/api/health-auto-export/cards', {
      json: { metric: 'not_a_metric', card: 'weight' },
    });
    expect(noMetric.status).toBe(422);
    expect(noMetric.body.details[0].path).toBe('body.metric');
    const other = await h.api('/api/health-auto-export/cards', {
      json: { metric: 'weight_body_mass', card: 'daily-steps' },
    });
    expect(other.status).toBe(409);
    expect(other.body.details[0].path).toBe('body.card');
    const empty = await h.api('/api/health-auto-export/cards', {
      json: { metric: 'weight_body_mass', card: '' },
    });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain('card');
    expect(await h.rows('weight')).toEqual([{ date: '2023-02-20', kg: 83 }]);
  });
});

describe('Add a card for a metric with a template', () => {
  it('makes the template card (Body weight), and a gallery Body weight card is fed by the phone directly', async () => {
    const h = await startIngestServer();
    s = h;
    await h.push(haeBytes(MAR2023));
    const r = await h.api('/api/health-auto-export/cards', { json: { metric: 'weight_body_mass' } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ id: 'weight', label: 'Body weight', template: 'weight', rowCount: 10 });
    const steps = await h.api('/api/health-auto-export/cards', { json: { metric: 'step_count' } });
    expect(steps.body).toMatchObject({ label: 'Steps', template: 'steps' });
  });

  it('a Body weight card made from the gallery now follows the phone by itself', async () => {
    const h = await startIngestServer();
    s = h;
    const made = await h.api('/api/settings/cards/from-template', { json: { templateId: 'weight' } });
    expect(made.status).toBe(201);
    await h.push(haeBytes(MAR2023));
    expect(await h.rows('weight')).toHaveLength(10);
    expect((await supported(h)).map((d) => d.metric)).not.toContain('weight_body_mass');
  });

  it('the gallery Blood pressure card can follow the phone: its pulse comes from the form, not the phone', async () => {
    const h = await startIngestServer();
    s = h;
    const made = await h.api('/api/settings/cards/from-template', { json: { templateId: 'bp' } });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    const hand = { date: '2026-07-01', time: '08:00', systolic: 121, diastolic: 79, pulse: 64 };
    expect((await h.api(`/api/manifests/${id}/rows`, { json: { value: hand } })).status).toBe(201);
    const reading = { date: '2026-07-02 07:30:00 +0200', systolic: 128, diastolic: 82, source: 'Omron' };
    const push = JSON.stringify({
      data: { metrics: [{ name: 'blood_pressure', units: 'mmHg', data: [reading] }] },
    });
    expect((await h.push(push)).status).toBe(200);
    const r = await h.api('/api/health-auto-export/cards', { json: { metric: 'blood_pressure', card: id } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, connected: true, id });
    const rows = (await h.rows(id)) as Record<string, unknown>[];
    expect(rows[0]).toEqual(hand);
    expect(rows.some((row) => row.systolic === 128 && row.diastolic === 82)).toBe(true);
  });
});
