/**
 * The Health Auto Export routes and the Apple Health
 * upload. Token, status and discoveries need the normal auth (session or agent bearer); the
 * webhook does its own (hae/webhook/routes.ts).
 *
 * - `GET /api/health-auto-export/token` → `{token, lastRegeneratedAt}` (nulls when none)
 * - `POST /api/health-auto-export/token` → 201 `{token, lastRegeneratedAt}`; 409 if one exists
 * - `POST /api/health-auto-export/token/regenerate` → `{token, lastRegeneratedAt}` (old one invalid at once)
 * - `DELETE /api/health-auto-export/token` → `{ok, tokenSet: false}` (the webhook then answers 501)
 * - `GET /api/health-auto-export/status` → `{tokenSet, endpointUrl, lastPush, lastFailedAttempt?}`;
 *   while config.json does not read, `tokenSet: null` and `configProblem: {code, error}` (still 200)
 * - `GET /api/health-auto-export/discoveries` → `{undismissed: {supported: {<category>: [{metric,
 *   firstSeenAt}]}, unsupported: [...]}, dismissed: [...]}`
 * - `POST /api/health-auto-export/discoveries/:metric/dismiss|unhide` → `{ok, metric, dismissed}`;
 *   404 for a metric never seen or another action
 * - `GET /api/health-auto-export/cards` → `{cards: [{id, label, emoji, metric, rowCount,
 *   latestDate, problems}]}`: the phone-fed cards and what does not fit (hae/card-fit.ts);
 *   latestDate is the latest day a row is filed under in the person's zone
 * - `POST /api/health-auto-export/cards` `{metric}` → 201 `{ok, id, label, metric, template,
 *   rowCount}`: "Add a card" for a metric (hae/metric-card.ts); 422 naming `metric`; 409
 *   CARD_EXISTS when a card follows it already (`copy: true` makes another)
 */

import fs from 'node:fs';
import path from 'node:path';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { CardContext } from '../cards/card-context.js';
import { createCard } from '../cards/card-crud.js';
import { cardFilePath } from '../cards/card-id.js';
import { KlebbError, notFound } from '../errors.js';
import { projectRoot } from '../home/project-root.js';
import type { Instance } from '../instance.js';
import { appleHealthImportRoute } from './apple-health/routes.js';
import { phoneFedCards } from './hae/card-fit.js';
import { connectCard } from './hae/connect-card.js';
import { endpointUrl } from './hae/endpoint-url.js';
import { withFillOffers } from './hae/fill-offer.js';
import { resolveMetric } from './hae/format/catalogue.js';
import { metricCard } from './hae/metric-card.js';
import { assertNoCardFollows } from './hae/metric-card-exists.js';
import type { HaeIngest } from './hae/service.js';
import { haeWebhookRoute } from './hae/webhook/routes.js';

/** Body of `POST /api/health-auto-export/cards`. */
const AddCardBody = Type.Object(
  {
    metric: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'a metric name of the catalogue (or an alias), as listed under discoveries',
    }),
    card: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'an existing card to fill from the phone instead of making a new one (its id)',
      }),
    ),
    copy: Type.Optional(
      Type.Boolean({ description: 'true: make a new card although one follows the metric already' }),
    ),
  },
  { additionalProperties: false },
);

/** True when a card uses `id` or a file of that name waits in the data folder. */
function idTaken(cards: CardContext, id: string): boolean {
  return cards.registry.has(id) || fs.existsSync(cardFilePath(cards.dataDir, id));
}

/**
 * `tokenSet` of the status route. A config.json that does not read is reported as
 * `{tokenSet: null, configProblem: {code, error}}` instead of failing the route: the status is
 * where a person (or a monitor) looks to learn what is wrong.
 */
function tokenStatus(
  svc: HaeIngest,
): { tokenSet: boolean } | { tokenSet: null; configProblem: { code: string; error: string } } {
  try {
    return { tokenSet: svc.tokens.read().token !== null };
  } catch (err) {
    if (!(err instanceof KlebbError) || err.code !== 'CONFIG_INVALID') throw err;
    return { tokenSet: null, configProblem: { code: err.code, error: err.message } };
  }
}

/** Registers every ingestion route for the instance's HAE ingestion. */
export function ingestRoutes(
  app: FastifyInstance,
  inst: Pick<Instance, 'hae' | 'config' | 'cards' | 'user'>,
): void {
  const svc: HaeIngest = inst.hae;
  haeWebhookRoute(app, svc);
  appleHealthImportRoute(app, svc);

  app.get('/api/health-auto-export/token', async () => svc.tokens.read());

  app.post('/api/health-auto-export/token', async (_req, reply) => {
    return reply.code(201).send(svc.tokens.generate());
  });

  app.post('/api/health-auto-export/token/regenerate', async () => svc.tokens.regenerate());

  app.delete('/api/health-auto-export/token', async () => {
    svc.tokens.clear();
    return { ok: true, tokenSet: false };
  });

  app.get('/api/health-auto-export/status', async (req) => {
    const failed = svc.lastFailedAttempt('hae');
    const token = tokenStatus(svc);
    return {
      ...token,
      endpointUrl: endpointUrl(req, inst.config.auth.origin, inst.config.trustedProxies),
      lastPush: svc.lastPush('hae'),
      ...(failed ? { lastFailedAttempt: failed } : {}),
    };
  });

  app.get('/api/health-auto-export/discoveries', async () =>
    withFillOffers(svc.discoveries(), inst.cards, path.join(projectRoot(), 'templates')),
  );

  app.post<{ Params: { metric: string; action: string } }>(
    '/api/health-auto-export/discoveries/:metric/:action',
    async (req) => {
      const { metric, action } = req.params;
      if (action !== 'dismiss' && action !== 'unhide') {
        throw notFound(`unknown action "${action}": use dismiss or unhide`, 'UNKNOWN_ACTION');
      }
      if (!svc.setDismissed(metric, action === 'dismiss')) {
        throw notFound(`metric "${metric}" was never seen in a push`, 'UNKNOWN_METRIC');
      }
      return {
        ok: true,
        metric: resolveMetric(metric)?.reads ?? metric.trim().toLowerCase(),
        dismissed: action === 'dismiss',
      };
    },
  );

  app.get('/api/health-auto-export/cards', async () => ({
    cards: phoneFedCards(inst.cards, inst.user.timeZone()),
  }));

  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .post('/api/health-auto-export/cards', { schema: { body: AddCardBody } }, async (req, reply) => {
      if (req.body.card !== undefined) {
        const c = connectCard(inst.cards, req.body.card, req.body.metric);
        return reply.code(200).send({ ok: true, connected: true, template: null, ...c });
      }
      // a double tap, or the request sent again, makes no second card fed from the same samples
      if (req.body.copy !== true) assertNoCardFollows(inst.cards, req.body.metric);
      const made = metricCard(req.body.metric, path.join(projectRoot(), 'templates'), (id) =>
        idTaken(inst.cards, id),
      );
      const created = createCard(inst.cards, made.manifest, req.principal?.actor ?? 'local');
      return reply.code(201).send({
        ok: true,
        id: created.id,
        label: made.manifest.meta.label,
        metric: resolveMetric(req.body.metric)?.key,
        template: made.template,
        rowCount: inst.cards.store.state(created.id).rowCount,
      });
    });
}
