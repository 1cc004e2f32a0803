/**
 * The welcome card switches itself off once, the first time another card arrives
 * (`meta.welcome.autoHideApplied`). One rule for every way a card arrives: created
 * with `POST /api/manifests` (or the chat tool), a file dropped into the data folder while the
 * server runs, or files found at start-up beside a welcome card that is still on.
 */
import { type CardContext, writeCardManifest } from './card-context.js';

/** The id of the welcome card seeded on first boot (auto-hidden once a first card is created). */
export const WELCOME_CARD_ID = 'welcome';

/**
 * Switches the welcome card off because card `arrivedId` arrived, when that is its first time:
 * not for the welcome card itself, not when it is already off, and not when it has switched
 * itself off before (the person turned it back on). Best effort: a welcome file that is missing
 * or holds a broken hand edit is left alone. The write sends the usual `card-changed` event.
 * @returns true when it switched the welcome card off now.
 */
export function autoHideWelcome(ctx: CardContext, arrivedId: string): boolean {
  if (arrivedId === WELCOME_CARD_ID) return false;
  const welcome = ctx.registry.get(WELCOME_CARD_ID);
  if (!welcome) return false;
  const meta = welcome.raw.meta ?? {};
  const flags = (meta.welcome ?? {}) as Record<string, unknown>;
  if (flags.autoHideApplied === true || meta.enabled === false) return false;
  try {
    writeCardManifest(ctx, welcome, {
      ...welcome.raw,
      meta: { ...meta, enabled: false, welcome: { ...flags, autoHideApplied: true } },
    });
  } catch {
    // best effort: the new card exists; a welcome file mid-edit or gone just stays as it is
    return false;
  }
  return true;
}

/**
 * At start-up: when the home had only the welcome card before (`knownBefore`, the card ids its
 * database held before the files were read, is just `welcome`), cards now found beside it were
 * dropped in while the server was stopped and hide it as one arriving while it runs would. Same
 * rule, same conditions. A first start (nothing known yet) with several files hides nothing:
 * those files are the home's starting set, not an addition.
 * @returns true when it switched the welcome card off now.
 */
export function autoHideWelcomeAtStart(ctx: CardContext, knownBefore: Iterable<string>): boolean {
  const known = [...knownBefore];
  if (known.length !== 1 || known[0] !== WELCOME_CARD_ID) return false;
  const other = ctx.registry.all().find((card) => card.id !== WELCOME_CARD_ID);
  return other !== undefined && autoHideWelcome(ctx, other.id);
}
