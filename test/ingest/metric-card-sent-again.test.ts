/**
 * "Add a card" for a phone metric, tapped twice or sent again after its answer was lost, makes one
 * card: a second card fed from the same samples would show every day twice on Today. The repeat
 * is 409 CARD_EXISTS naming body.metric and the card that follows the metric (also when it was
 * named by an alias, or the card came from the gallery), and nothing is written; `copy: true`
 * still adds another on purpose. Real server, real pushes, real card files.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { haeBytes, type IngestServer, startIngestServer } from './helpers.js';

let h: IngestServer | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const stepCards = (srv: IngestServer) =>
  fs
    .readdirSync(srv.dataDir)
    .filter((f) => f.startsWith('steps'))
    .sort();
const addCard = (srv: IngestServer, json: Record<string, unknown>) =>
  srv.api('/api/health-auto-export/cards', { json });

describe('Add a card for a phone metric sent again', () => {
  it('two taps at once make one card; the other is 409 CARD_EXISTS naming it', async () => {
    h = await startIngestServer();
    await h.push(haeBytes('generated-2026-total-sleep.json'));
    const srv = h;
    const both = await Promise.all([
      addCard(srv, { metric: 'step_count' }),
      addCard(srv, { metric: 'step_count' }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const refused = both.find((r) => r.status === 409);
    expect(refused?.body).toMatchObject({ code: 'CARD_EXISTS', id: 'steps' });
    expect(refused?.body.details).toEqual([
      { path: 'body.metric', message: expect.stringContaining('steps') },
    ]);
    expect(stepCards(srv)).toEqual(['steps.json']);
    // sent again later, by an alias of the metric's name: still the one card
    const later = await addCard(srv, { metric: 'stepCount' });
    expect(later.status, later.text).toBe(409);
    expect(later.body.id).toBe('steps');
    expect(stepCards(srv)).toEqual(['steps.json']);
    // a second card on purpose
    const copy = await addCard(srv, { metric: 'step_count', copy: true });
    expect(copy.status, copy.text).toBe(201);
    expect(copy.body.id).toBe('steps-2');
  });

  it('a card made from the gallery that follows the metric counts', async () => {
    h = await startIngestServer();
    await h.push(haeBytes('generated-2026-total-sleep.json'));
    const made = await h.api('/api/settings/cards/from-template', { json: { templateId: 'steps' } });
    expect(made.status, made.text).toBe(201);
    const r = await addCard(h, { metric: 'step_count' });
    expect(r.status, r.text).toBe(409);
    expect(r.body.id).toBe(made.body.id);
    expect(stepCards(h)).toEqual([`${made.body.id}.json`]);
  });
});
