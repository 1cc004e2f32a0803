/**
 * Whole cards (docs/API.md "Manifests", "Data", "Reordering cards", "Views"): the bodies of
 * `POST /api/manifests`, `PATCH /api/manifests/:id`, `POST /api/manifests/:id/data` and
 * `POST /api/manifests/reorder`, shared with create_manifest, patch_manifest and
 * write_manifest_data. The schemas check the shape a request must have (400); the manifest
 * rules themselves (id pattern, optional fields, 422 INVALID naming each field) stay in
 * src/cards/validate-manifest.ts, the one place that knows them.
 */
import { Type } from '@sinclair/typebox';
import { MAX_REORDER_IDS } from '../limits.js';

/** A full `klebb.datafile.v1` manifest. */
export const ManifestBody = Type.Object(
  {
    // (descriptions stay short: the chat tools send this schema to the model on every turn)
    $schema: Type.String(),
    meta: Type.Object({ id: Type.String(), label: Type.String() }, { additionalProperties: true }),
    description: Type.Optional(Type.Unknown()),
    schema: Type.Optional(Type.Unknown()),
    data: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: true },
);

/** An RFC 7396 merge patch of a card's `meta` and `description` (other keys are refused by the patch rules). */
export const ManifestPatch = Type.Object(
  {
    meta: Type.Optional(Type.Unknown()),
    description: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: true },
);

/** `POST /api/manifests/:id/data` body; write_manifest_data's `data`. */
export const DataBody = Type.Object({
  data: Type.Unknown(),
});

/** `POST /api/manifests/reorder` body. */
export const CardReorderBody = Type.Object({
  order: Type.Array(Type.String(), {
    maxItems: MAX_REORDER_IDS,
    errorMessage: `must be a list of at most ${MAX_REORDER_IDS} card ids`,
    description: 'card ids in the new order; the rest keep theirs after',
  }),
});

/** `GET /api/views/:view`. */
export const ViewParams = Type.Object({
  view: Type.String({ description: 'dashboard, or another view name' }),
});

/** `GET /api/views/:view?data=`. */
export const ViewQuery = Type.Object({
  data: Type.Optional(
    Type.Union([Type.Literal('0'), Type.Literal('1'), Type.Literal('recent')], {
      errorMessage: 'must be 0, 1 or recent',
      description: "1: each card's data and etag; recent: generic cards' latest rows; 0: none",
    }),
  ),
});
