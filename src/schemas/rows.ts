/**
 * Row operations (docs/API.md "Rows"): the bodies and queries of `/api/manifests/:id/rows…`
 * and the arguments of read_manifest_rows, append_row, update_row, remove_row and reorder_rows
 * (the tools add the card `id`, see withCardId). What a row path means is checked by the row
 * functions (400 BAD_PATH, 404 NO_MATCH …); these schemas check the shape.
 */
import { Type } from '@sinclair/typebox';
import { MAX_ROW_WINDOW } from '../limits.js';

/** A row path (docs/API.md "Row path grammar"). */
export const RowPath = Type.String({
  description:
    'Row path ("" = all data), e.g. [date="2026-04-20"], items[name="Vitamin D"].doses, [index=-1]. Strings quoted, numbers and true/false bare.',
});

/** Which rows of an array a read returns. */
export const RowWindowFields = {
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  limit: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_ROW_WINDOW,
      description: `default 10`,
    }),
  ),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
};

/** `GET /api/manifests/:id/rows` query; read_manifest_rows arguments. */
export const ReadRowsInput = Type.Object({ path: Type.Optional(RowPath), ...RowWindowFields });

/** `POST /api/manifests/:id/rows` body; append_row arguments. */
export const AppendRowInput = Type.Object({
  path: Type.Optional(RowPath),
  value: Type.Unknown(),
});

/** `PATCH /api/manifests/:id/rows` body; update_row arguments. */
export const UpdateRowInput = Type.Object({
  path: RowPath,
  changes: Type.Object(
    {},
    { additionalProperties: true, description: 'an RFC 7396 merge patch: null deletes a field' },
  ),
});

/** `DELETE /api/manifests/:id/rows` query or body; remove_row arguments (where `path` is required). */
export const RemoveRowInput = Type.Object({ path: RowPath });

/** `DELETE /api/manifests/:id/rows`: the path may come in the query or in a JSON body. */
export const RemoveRowOptional = Type.Object({ path: Type.Optional(RowPath) });

/** `POST /api/manifests/:id/rows/reorder` body; reorder_rows arguments. */
export const ReorderRowsInput = Type.Object({
  path: Type.Optional(RowPath),
  key: Type.String({ minLength: 1 }),
  order: Type.Array(Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
});
