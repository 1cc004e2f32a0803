/**
 * `POST /api/chat/approvals/:id` (docs/API.md "Approvals"): the person's answer to an `approval`
 * event. Body `{decision: "approve"|"decline", digest, conversationId}`; 200 `{ok, id, decision}`.
 * 404 unknown id, 409 already answered / expired / for another conversation or call: nothing
 * happens then.
 */

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ApprovalHub } from './approval-hub.js';

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
const Body = Type.Object(
  {
    decision: Type.Union([Type.Literal('approve'), Type.Literal('decline')]),
    digest: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'the digest of the approval event' }),
    conversationId: Type.Optional(
      Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
        description: 'the conversation of the turn; null or absent for a turn without one',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Registers the approval answer route. */
export function approvalRoutes(app: FastifyInstance, hub: ApprovalHub): void {
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .post('/api/chat/approvals/:id', { schema: { params: Params, body: Body } }, async (req) => {
      const { decision, digest, conversationId } = req.body;
      const result = hub.resolve(req.params.id, {
        conversationId: conversationId ?? null,
        digest,
        approve: decision === 'approve',
      });
      return { ok: true, id: req.params.id, decision: result };
    });
}
