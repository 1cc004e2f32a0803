/**
 * Undo from the chat: `undo_last_change` takes back the newest change set this conversation made
 * (a whole earlier turn; an MCP client: its own newest call), or a named one. It is the same undo as `POST /api/changes/:id/undo`,
 * with the same refusal when what it changed was changed again since.
 */
import { Type } from '@sinclair/typebox';
import { lastUndoableSet, undoChangeSet } from '../../cards/undo.js';
import { notFound } from '../../errors.js';
import { defineTool } from './tool.js';

export const undoLastChange = defineTool({
  name: 'undo_last_change',
  description:
    'Undo what one earlier turn of this chat changed (or change_set_id). Nothing is undone if it changed again since.',
  parameters: Type.Object({
    change_set_id: Type.Optional(
      Type.Integer({ minimum: 1, description: 'a change set id; default: the newest one from this chat' }),
    ),
  }),
  run: ({ change_set_id }, ctx) => {
    const who = ctx.undoable === undefined ? { actor: ctx.actor } : ctx.undoable;
    const id = change_set_id ?? (who ? lastUndoableSet(ctx.cards, who) : undefined);
    if (id === undefined)
      throw notFound('there is no change from this chat left to undo', 'CHANGE_SET_NOT_FOUND');
    const r = undoChangeSet(ctx.cards, id, ctx.actor);
    return { ok: true, undone: r.undone, summary: r.changeSet.summary };
  },
});

/** The change tools. */
export const CHANGE_TOOLS = [undoLastChange];
