/**
 * Row-level tools (read_manifest_rows, append_row, update_row, remove_row,
 * reorder_rows): the same functions and the same input schemas (src/schemas/rows.ts) as the
 * `/api/manifests/:id/rows` routes.
 */

import { Type } from '@sinclair/typebox';
import {
  appendRow,
  checkRemoveRow,
  readRowsPaged,
  removeRow,
  reorderRows,
  updateRow,
  type WriteOptions,
} from '../../cards/card-data.js';
import { todayIn } from '../../common/dates.js';
import { withCardId } from '../../schemas/common.js';
import {
  AppendRowInput,
  ReadRowsInput,
  RemoveRowInput,
  ReorderRowsInput,
  UpdateRowInput,
} from '../../schemas/rows.js';
import { removeRowApproval } from './approval-policy.js';
import { defineTool, type ToolContext } from './tool.js';

/**
 * The options of a row write made in the person's name: a row's date is checked against their
 * today in their zone, as the entry forms check it (card-data.ts WriteOptions.personDay).
 */
function personWrite(ctx: ToolContext): WriteOptions {
  return { actor: ctx.actor, personDay: { today: todayIn(ctx.timeZone), timeZone: ctx.timeZone } };
}

/**
 * read_manifest_rows arguments: those of `GET /api/manifests/:id/rows` and the `version` a first
 * page gave, which the HTTP route takes as `If-Match` instead.
 */
const ReadPagedRowsInput = Type.Object({
  ...ReadRowsInput.properties,
  version: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: "the first page's version: refused (PRECONDITION_FAILED) if rows changed since",
    }),
  ),
});

export const readManifestRows = defineTool({
  name: 'read_manifest_rows',
  readOnly: true,
  description:
    'Rows at a row path: arrays newest first, 10 per call with the total and version; objects whole.',
  parameters: withCardId(ReadPagedRowsInput),
  cardIdOf: (a) => a.id,
  run: ({ id, path, order, limit, offset, version }, ctx) =>
    readRowsPaged(ctx.cards, id, path ?? '', { order, limit, offset }, version),
});

export const appendRowTool = defineTool({
  name: 'append_row',
  description: 'Append one row (value) to the array at path.',
  parameters: withCardId(AppendRowInput),
  cardIdOf: (a) => a.id,
  run: ({ id, path, value }, ctx) => {
    const { etag: _e, ...r } = appendRow(ctx.cards, id, path ?? '', value, personWrite(ctx));
    ctx.touch({ id, flow: 'edit' });
    return r;
  },
});

export const updateRowTool = defineTool({
  name: 'update_row',
  description: 'Merge changes into the one row at path (null deletes a field).',
  parameters: withCardId(UpdateRowInput),
  cardIdOf: (a) => a.id,
  run: ({ id, path, changes }, ctx) => {
    const { etag: _e, ...r } = updateRow(ctx.cards, id, path, changes, personWrite(ctx));
    ctx.touch({ id, flow: 'edit' });
    return r;
  },
});

export const removeRowTool = defineTool({
  name: 'remove_row',
  description:
    'Remove the one row at path (ends in [field=value] or [index=N]); approved from the 2nd removal on.',
  parameters: withCardId(RemoveRowInput),
  cardIdOf: (a) => a.id,
  check: ({ id, path }, ctx) => checkRemoveRow(ctx.cards, id, path),
  approval: ({ id, path }, ctx) => removeRowApproval(ctx, id, path),
  run: ({ id, path }, ctx) => {
    const { etag: _e, ...r } = removeRow(ctx.cards, id, path, { actor: ctx.actor });
    ctx.removedRows = (ctx.removedRows ?? 0) + 1;
    ctx.touch({ id, flow: 'edit' });
    return r;
  },
});

export const reorderRowsTool = defineTool({
  name: 'reorder_rows',
  description: "Reorder the array at path: order lists every row's key value once.",
  parameters: withCardId(ReorderRowsInput),
  cardIdOf: (a) => a.id,
  run: ({ id, path, key, order }, ctx) => {
    const { etag: _e, ...r } = reorderRows(ctx.cards, id, path ?? '', key, order, { actor: ctx.actor });
    ctx.touch({ id, flow: 'edit' });
    return r;
  },
});

/** The row tools. */
export const ROW_TOOLS = [readManifestRows, appendRowTool, updateRowTool, removeRowTool, reorderRowsTool];
