/**
 * A new card from a gallery template (`POST /api/settings/cards/from-template`): the template's
 * manifest without its `meta.template` block, its `{{string:name}}` placeholders filled from
 * `meta.template.defaults`, under an id no card uses yet (`weight`, then `weight-2`, `weight-3`…,
 * the label numbered the same way), created like any other card (src/cards/card-crud.ts). A second
 * card from a template whose card is already there is made only when asked for (`copy: true`): a
 * repeated click or a retried request must not leave two identical cards behind.
 */
import fs from 'node:fs';
import type { CardContext } from '../cards/card-context.js';
import { type CreateResult, createCard } from '../cards/card-crud.js';
import { cardFilePath } from '../cards/card-id.js';
import { badRequest, KlebbError } from '../errors.js';
import { MAX_CARD_ID_CHARS } from '../limits.js';
import type { Actor } from '../store/change-log.js';
import { readTemplates, type Template, withoutGalleryBlock } from './template-catalogue.js';

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const PLACEHOLDER = /\{\{string:([a-zA-Z0-9_.-]+)\}\}/g;

/** `value` with every `{{string:name}}` in its strings replaced by `defaults[name]` (absent: empty). */
export function fillPlaceholders(value: unknown, defaults: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    return value.replace(PLACEHOLDER, (_m, name: string) =>
      typeof defaults[name] === 'string' ? (defaults[name] as string) : '',
    );
  }
  if (Array.isArray(value)) return value.map((v) => fillPlaceholders(v, defaults));
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillPlaceholders(v, defaults)]));
  }
  return value;
}

/** The first of `base`, `base-2`, `base-3`… that no loaded card and no file in the data folder uses. */
export function freeCardId(ctx: CardContext, base: string): { id: string; n: number } {
  const taken = (id: string) => ctx.registry.has(id) || fs.existsSync(cardFilePath(ctx.dataDir, id));
  if (!taken(base)) return { id: base, n: 1 };
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const id = `${base.slice(0, MAX_CARD_ID_CHARS - suffix.length)}${suffix}`;
    if (!taken(id)) return { id, n };
  }
}

/**
 * The loaded card made from template `templateId` earlier: the one with its id, else the first
 * numbered copy (`<id>-2`, `<id>-3`…), or undefined.
 */
export function cardFromTemplate(ctx: CardContext, templateId: string): string | undefined {
  if (ctx.registry.has(templateId)) return templateId;
  let first: { id: string; n: number } | undefined;
  for (const { id } of ctx.registry.all()) {
    const rest = id.startsWith(`${templateId}-`) ? id.slice(templateId.length + 1) : '';
    if (/^\d+$/.test(rest) && (!first || Number(rest) < first.n)) first = { id, n: Number(rest) };
  }
  return first?.id;
}

/** `meta` with its reminders' references to the template's own id pointed at the new card's `id`. */
function retargetReminders(meta: Record<string, unknown>, from: string, id: string): Record<string, unknown> {
  const n = meta.notifications;
  if (from === id || !isObject(n) || !Array.isArray(n.items)) return meta;
  const items = n.items.map((item) => {
    if (!isObject(item)) return item;
    const out = { ...item };
    for (const key of ['trigger', 'action']) {
      const part = out[key];
      if (isObject(part) && part.card === from) out[key] = { ...part, card: id };
    }
    return out;
  });
  return { ...meta, notifications: { ...n, items } };
}

/** The data a new card starts with (see template-catalogue.ts `keepData`, `emptyData`). */
function startingData(t: Template): unknown {
  const data = t.manifest.data;
  if (t.gallery.keepData === true) return data ?? [];
  if (t.gallery.emptyData !== undefined) return t.gallery.emptyData;
  return isObject(data) ? {} : [];
}

/** Result of createFromTemplate: createCard's, with the new card's label and the template id. */
export type FromTemplateResult = CreateResult & { label: string; templateId: string };

/**
 * Makes a card from template `body.templateId`.
 * @throws 400 naming `templateId` when it is missing or not a string, or `copy` when it is not a
 *   boolean; 404 TEMPLATE_NOT_FOUND naming it when no valid template has that id; 409 CARD_EXISTS
 *   naming the card already made from it, unless `body.copy` is true; createCard's errors otherwise.
 */
export function createFromTemplate(
  ctx: CardContext,
  body: unknown,
  actor: Actor,
  dir?: string,
): FromTemplateResult {
  const templateId = isObject(body) ? body.templateId : undefined;
  if (typeof templateId !== 'string' || templateId === '') {
    const message = templateId === undefined ? 'is required' : 'must be a template id (a string)';
    throw badRequest(`templateId ${message}`, [{ path: 'templateId', message }]);
  }
  const t = readTemplates(dir).templates.find((x) => x.id === templateId);
  if (!t) {
    throw new KlebbError(404, 'TEMPLATE_NOT_FOUND', `no card template "${templateId}"`, [
      { path: 'templateId', message: 'no template with this id' },
    ]);
  }
  const copy = isObject(body) ? body.copy : undefined;
  if (copy !== undefined && typeof copy !== 'boolean') {
    throw badRequest('copy must be true or false', [{ path: 'copy', message: 'must be true or false' }]);
  }
  const existing = copy === true ? undefined : cardFromTemplate(ctx, t.id);
  if (existing !== undefined) {
    throw new KlebbError(
      409,
      'CARD_EXISTS',
      `the card "${existing}" was already made from template "${templateId}"; send copy: true to add another one`,
      [{ path: 'templateId', message: `already on the dashboard as "${existing}"` }],
      { id: existing },
    );
  }
  const defaults = isObject(t.gallery.defaults) ? t.gallery.defaults : {};
  const manifest = fillPlaceholders(withoutGalleryBlock(t.manifest), defaults) as Template['manifest'];
  const { id, n } = freeCardId(ctx, t.id);
  const label = n === 1 ? String(manifest.meta.label) : `${manifest.meta.label} ${n}`;
  const result = createCard(
    ctx,
    {
      ...manifest,
      meta: { ...retargetReminders(manifest.meta, t.id, id), id, label },
      data: startingData(t),
    },
    actor,
  );
  return { ...result, label, templateId };
}
