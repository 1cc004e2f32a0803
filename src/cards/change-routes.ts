/**
 * Change history routes (docs/API.md "Changes and undo"):
 * - `GET /api/changes?limit&before&card&actor` → `{changeSets, next}`, newest first.
 * - `POST /api/changes/:id/undo` → `{ok, undone, changeSet}`; 404 unknown set; 409 already
 *   undone, changed again since (naming what) or not undoable.
 */

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.js';
import type { Instance } from '../instance.js';
import { CHANGE_LIST_MAX } from '../limits.js';
import { checkChangeFilters } from './change-filters.js';
import { listChangeSets } from './change-sets.js';
import { undoChangeSet } from './undo.js';

/**
 * A whole number from 1 in the query or path, read by the one URL number grammar
 * (src/http/url-numbers.ts), whose refusal says how to write it.
 */
const Whole = (description: string) =>
  Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description });

const ListQuery = Type.Object(
  {
    limit: Type.Optional(Whole(`sets per page, 1 to ${CHANGE_LIST_MAX}`)),
    before: Type.Optional(Whole('only sets with a smaller id: the `next` of the previous page')),
    card: Type.Optional(Type.String({ minLength: 1 })),
    actor: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

const SetParams = Type.Object({ id: Whole('the change set id') });

/** Registers the change history routes. */
export function changeRoutes(app: FastifyInstance, inst: Instance): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get('/api/changes', { schema: { querystring: ListQuery } }, async (req) => {
    const q: Static<typeof ListQuery> = req.query;
    const limit = q.limit;
    if (limit !== undefined && limit > CHANGE_LIST_MAX) {
      throw badRequest(`query.limit must be at most ${CHANGE_LIST_MAX}`, [
        { path: 'query.limit', message: `must be at most ${CHANGE_LIST_MAX}` },
      ]);
    }
    checkChangeFilters(q);
    return listChangeSets(inst.cards, {
      limit,
      before: q.before,
      cardId: q.card,
      actor: q.actor,
    });
  });
  r.post('/api/changes/:id/undo', { schema: { params: SetParams } }, async (req) =>
    undoChangeSet(inst.cards, Number(req.params.id), req.principal?.actor ?? 'local'),
  );
}
