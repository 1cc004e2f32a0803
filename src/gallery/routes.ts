/**
 * The card gallery's routes (docs/API.md "Card gallery"): the templates with their previews, and a
 * new card from one. Signed-in callers only (the gate's default); a new card is a write like any
 * other (refused to read-only tokens and in the demo by the gate).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { todayIn } from '../common/dates.js';
import { inBody } from '../http/body-fields.js';
import type { Instance } from '../instance.js';
import { CalendarDay } from '../schemas/common.js';
import { createFromTemplate } from './from-template.js';
import { readTemplates, templateEntry } from './template-catalogue.js';

/** `GET /api/templates?today=`: the day previews are dated back from. */
const TemplatesQuery = Type.Object({
  today: Type.Optional(CalendarDay('the day previews are dated back from (default: today)')),
});

/** Registers `GET /api/templates` and `POST /api/settings/cards/from-template`. */
export function galleryRoutes(fastify: FastifyInstance, inst: Instance): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/templates', { schema: { querystring: TemplatesQuery } }, async (req) => {
    const today = req.query.today ?? todayIn(inst.user.timeZone());
    const { templates, problems } = readTemplates();
    return { templates: templates.map((t) => templateEntry(t, today)), errors: problems };
  });

  app.post('/api/settings/cards/from-template', async (req, reply) => {
    const result = inBody(() => createFromTemplate(inst.cards, req.body, req.principal?.actor ?? 'local'));
    return reply.status(201).send(result);
  });
}
