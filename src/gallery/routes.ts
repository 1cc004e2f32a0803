/**
 * The card gallery's routes (docs/API.md "Card gallery"): the templates with their previews, and a
 * new card from one. Signed-in callers only (the gate's default); a new card is a write like any
 * other (refused to read-only tokens and in the demo by the gate).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { isIsoDate, todayIn } from '../common/dates.js';
import { badRequest } from '../errors.js';
import type { Instance } from '../instance.js';
import { createFromTemplate } from './from-template.js';
import { readTemplates, templateEntry } from './template-catalogue.js';

/** `GET /api/templates?today=`: the day previews are dated back from (YYYY-MM-DD, checked below). */
const TemplatesQuery = Type.Object({ today: Type.Optional(Type.String()) });

/** Registers `GET /api/templates` and `POST /api/settings/cards/from-template`. */
export function galleryRoutes(fastify: FastifyInstance, inst: Instance): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/templates', { schema: { querystring: TemplatesQuery } }, async (req) => {
    const asked = req.query.today;
    if (asked !== undefined && !isIsoDate(asked)) {
      throw badRequest('today must be a date written YYYY-MM-DD', [
        { path: 'query.today', message: 'must be a date YYYY-MM-DD' },
      ]);
    }
    const today = asked ?? todayIn(inst.user.timeZone());
    const { templates, problems } = readTemplates();
    return { templates: templates.map((t) => templateEntry(t, today)), errors: problems };
  });

  app.post('/api/settings/cards/from-template', async (req, reply) => {
    const result = createFromTemplate(inst.cards, req.body, req.principal?.actor ?? 'local');
    return reply.status(201).send(result);
  });
}
