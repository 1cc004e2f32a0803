/**
 * Which `emojiMap` a card's templates use for `{field:emoji}` (docs/MANIFEST-SCHEMA.md, "display
 * and the template language"). Every renderer that fills a template reads the same one, so a
 * list or a table of mood rows shows 🙂 where the Today card does. No Node imports.
 */

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `config.display.emojiMap`, else `config.emojiMap` (older files put a renderer's settings there). */
function ownMap(config: unknown): Obj | undefined {
  if (!isObj(config)) return undefined;
  const display = config.display;
  if (isObj(display) && isObj(display.emojiMap)) return display.emojiMap;
  return isObj(config.emojiMap) ? config.emojiMap : undefined;
}

/**
 * The emoji map for the templates of `viewConfig` (one of the card's `meta.view`, `meta.reports`,
 * ... configs): its own `display.emojiMap` or `emojiMap`, else the one of the card's Today view
 * (`meta.view`), where a card usually says which emoji its values stand for. Undefined when the
 * card has none (`:emoji` then shows the raw value).
 */
export function emojiMapFor(meta: unknown, viewConfig?: unknown): Obj | undefined {
  return ownMap(viewConfig) ?? (isObj(meta) ? ownMap(meta.view) : undefined);
}
