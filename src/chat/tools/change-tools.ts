/**
 * Undo from the chat: `undo_last_change` takes back the newest change set the chat made (a
 * whole earlier turn), or a named one. It is the same undo as `POST /api/changes/:id/undo`,
 * with the same refusal when what it changed was changed again since.
 */
import { Type } from '@sinclair/typebox';
import { actorKind } from '../../cards/change-sets.js';
import { lastUndoableSet, undoChangeSet } from '../../cards/undo.js';
import { notFound } from '../../errors.js';
import { defineTool } from './tool.js';

export const undoLastChange = defineTool({
  name: 'undo_last_change',
  description:
    'Undo the most recent change set made from this chat (everything one earlier turn wrote), or the one change_set_id names (a reply lists its change set). Answers what was undone, or why it could not be (it was changed again since: nothing is undone then).',
  parameters: Type.Object({
    change_set_id: Type.Optional(
      Type.Integer({ minimum: 1, description: 'a change set id; default: the newest one from this chat' }),
    ),
  }),
  run: ({ change_set_id }, ctx) => {
    const id = change_set_id ?? lastUndoableSet(ctx.cards, actorKind(ctx.actor), ctx.actor);
    if (id === undefined)
      throw notFound('there is no change from this chat left to undo', 'CHANGE_SET_NOT_FOUND');
    const r = undoChangeSet(ctx.cards, id, ctx.actor);
    return { ok: true, undone: r.undone, summary: r.changeSet.summary };
  },
});

/** The change tools. */
export const CHANGE_TOOLS = [undoLastChange];
