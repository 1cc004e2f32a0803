/**
 * Tools that author and read whole cards.
 * Each calls the card store's functions: no second copy of any rule.
 */
import { Type } from '@sinclair/typebox';
import { findCard } from '../../cards/card-context.js';
import {
  checkDelete,
  checkPatch,
  compareCards,
  createCard,
  deleteCard,
  patchCard,
} from '../../cards/card-crud.js';
import { checkReplaceData, replaceData } from '../../cards/card-data.js';
import { setCardEnabled } from '../../cards/card-order.js';
import { dryRunValidate } from '../../cards/validate-manifest.js';
import { firstLine } from '../../common/text.js';
import { ingestFitErrors } from '../../ingest/hae/card-fit.js';
import { CardId } from '../../schemas/common.js';
import { DataBody, ManifestBody, ManifestPatch } from '../../schemas/manifests.js';
import { deleteApproval, patchApproval, replaceApproval } from './approval-policy.js';
import { defineTool } from './tool.js';

const Id = CardId;

export const listManifests = defineTool({
  name: 'list_manifests',
  readOnly: true,
  description: 'Every card: id, label, enabled, first description line.',
  parameters: Type.Object({}),
  run: (_args, ctx) => ({
    cards: ctx.cards.registry
      .all()
      .sort(compareCards)
      .map((c) => ({
        id: c.id,
        label: c.manifest.meta.label,
        description: firstLine(c.manifest.description, 200),
        enabled: c.manifest.meta.enabled !== false,
      })),
  }),
});

export const readManifestMeta = defineTool({
  name: 'read_manifest_meta',
  readOnly: true,
  description: 'One card without rows: meta, description, schema. Read before any write.',
  parameters: Type.Object({ id: Id }),
  cardIdOf: (a) => a.id,
  run: ({ id }, ctx) => {
    const c = findCard(ctx.cards, id);
    return {
      meta: c.manifest.meta,
      description: c.manifest.description ?? null,
      schema: c.manifest.schema ?? null,
    };
  },
});

export const readManifest = defineTool({
  name: 'read_manifest',
  readOnly: true,
  description: 'A whole card with every row. Last resort on big cards.',
  parameters: Type.Object({ id: Id }),
  cardIdOf: (a) => a.id,
  run: ({ id }, ctx) => {
    const c = findCard(ctx.cards, id);
    return {
      meta: c.manifest.meta,
      description: c.manifest.description ?? null,
      schema: c.manifest.schema ?? null,
      data: ctx.cards.store.read(id) ?? null,
    };
  },
});

export const createManifest = defineTool({
  name: 'create_manifest',
  description: 'Create a card from a full klebb.datafile.v1 manifest. validate_manifest first.',
  parameters: Type.Object({ manifest: ManifestBody }),
  cardIdOf: (a) => a.manifest.meta.id,
  run: ({ manifest }, ctx) => {
    const r = createCard(ctx.cards, manifest, ctx.actor);
    ctx.touch({ id: r.id, flow: 'create' });
    return { ...r, replayed: false };
  },
});

export const deleteManifest = defineTool({
  name: 'delete_manifest',
  description: 'Delete a card and its rows, after the person approves. hide_card is gentler.',
  parameters: Type.Object({ id: Id }),
  cardIdOf: (a) => a.id,
  check: ({ id }, ctx) => checkDelete(ctx.cards, id),
  approval: ({ id }, ctx) => deleteApproval(ctx, id),
  run: ({ id }, ctx) => ({ ...deleteCard(ctx.cards, id, ctx.actor), removed: true }),
});

export const patchManifest = defineTool({
  name: 'patch_manifest',
  description:
    "Merge-patch a card's meta and/or description (null deletes; arrays replaced whole). validate_manifest first.",
  parameters: Type.Object({ id: Id, patch: ManifestPatch }),
  cardIdOf: (a) => a.id,
  check: ({ id, patch }, ctx) => checkPatch(ctx.cards, id, patch),
  approval: ({ id, patch }, ctx) => patchApproval(ctx, id, patch),
  run: ({ id, patch }, ctx) => {
    const r = patchCard(ctx.cards, id, patch);
    ctx.touch({ id, flow: 'edit' });
    return { ok: r.ok, id: r.id };
  },
});

export const writeManifestData = defineTool({
  name: 'write_manifest_data',
  description: "Replace a card's whole data block. Last resort: use the row tools for rows.",
  parameters: Type.Object({ id: Id, data: DataBody.properties.data }),
  cardIdOf: (a) => a.id,
  check: ({ id, data }, ctx) => checkReplaceData(ctx.cards, id, data),
  approval: ({ id, data }, ctx) => replaceApproval(ctx, id, data),
  run: ({ id, data }, ctx) => {
    replaceData(ctx.cards, id, data, { actor: ctx.actor });
    ctx.touch({ id, flow: 'edit' });
    return { ok: true, id };
  },
});

export const hideCard = defineTool({
  name: 'hide_card',
  description: 'Hide a card from every view; it keeps its rows and accepts writes.',
  parameters: Type.Object({ id: Id }),
  cardIdOf: (a) => a.id,
  run: ({ id }, ctx) => setCardEnabled(ctx.cards, id, false),
});

export const showCard = defineTool({
  name: 'show_card',
  description: 'Show a hidden card again.',
  parameters: Type.Object({ id: Id }),
  cardIdOf: (a) => a.id,
  run: ({ id }, ctx) => setCardEnabled(ctx.cards, id, true),
});

export const validateManifest = defineTool({
  name: 'validate_manifest',
  readOnly: true,
  description: 'Dry-run a candidate manifest: {ok} or {ok:false, errors:[{path,message}]}. Writes nothing.',
  parameters: Type.Object({ manifest: Type.Unknown() }),
  run: ({ manifest }) => {
    const checked = dryRunValidate(manifest);
    // a phone-fed card reading a field its metric never sends is refused on create (card-fit.ts)
    const fit = ingestFitErrors((manifest as { meta?: unknown } | null)?.meta);
    if (fit.length === 0) return checked;
    return { ok: false as const, errors: [...(checked.ok ? [] : checked.errors), ...fit] };
  },
});

/** The card tools, in the order the prompt lists them. */
export const CARD_TOOLS = [
  listManifests,
  readManifestMeta,
  readManifest,
  createManifest,
  patchManifest,
  deleteManifest,
  writeManifestData,
  hideCard,
  showCard,
  validateManifest,
];
