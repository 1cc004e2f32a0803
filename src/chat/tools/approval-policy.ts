/**
 * Which tool calls need the person's approval, and the plain words that ask for it. Only
 * destructive calls do: deleting a card, replacing rows that exist, removing more than one row
 * in a turn, removing a reminder, and a patch that drops form inputs or stops entries from the
 * web app. Everything else runs at once (and every write can still be undone).
 */
import { requireCard } from '../../cards/card-context.js';
import { formInputs } from '../../common/inputs.js';
import { isolateText } from '../../common/isolate-text.js';
import { mergePatch } from '../../store/row-ops.js';
import type { ToolContext } from './tool.js';

const rows = (n: number) => (n === 1 ? '1 row' : `${n} rows`);

function labelOf(ctx: ToolContext, id: string): string {
  return isolateText(String(requireCard(ctx.cards, id).manifest.meta.label ?? id));
}

/** `delete_manifest`: always. */
export function deleteApproval(ctx: ToolContext, id: string): string {
  const n = ctx.cards.store.state(id).rowCount;
  return `Delete the card “${labelOf(ctx, id)}”${n ? ` and its ${rows(n)}` : ''}.`;
}

/** `write_manifest_data`: when the card holds rows that would be replaced. */
export function replaceApproval(ctx: ToolContext, id: string, data: unknown): string | undefined {
  const label = labelOf(ctx, id);
  const n = ctx.cards.store.state(id).rowCount;
  if (n === 0) return undefined;
  const next = Array.isArray(data) ? rows(data.length) : 'a single value';
  return `Replace all ${rows(n)} of “${label}” with ${next}.`;
}

/** `remove_row`: from the second row a turn removes on. */
export function removeRowApproval(ctx: ToolContext, id: string, path: string): string | undefined {
  if ((ctx.removedRows ?? 0) < 1) return undefined;
  return `Remove the row ${isolateText(path)} from “${labelOf(ctx, id)}” (another row removed in the same request).`;
}

/** `remove_notification`: always. */
export function removeReminderApproval(ctx: ToolContext, cardId: string, notificationId: string): string {
  const block = requireCard(ctx.cards, cardId).raw.meta?.notifications as { items?: unknown } | undefined;
  const items = Array.isArray(block?.items) ? (block.items as { id?: unknown; label?: unknown }[]) : [];
  const label = items.find((it) => it?.id === notificationId)?.label;
  return `Remove the reminder “${isolateText(typeof label === 'string' ? label : notificationId)}” from “${labelOf(ctx, cardId)}”.`;
}

/** `patch_manifest`: when the patch drops form inputs or turns `writeable.fromWebapp` off. */
export function patchApproval(
  ctx: ToolContext,
  id: string,
  patch: Record<string, unknown>,
): string | undefined {
  const card = requireCard(ctx.cards, id);
  const metaPatch = patch.meta;
  if (metaPatch === undefined || metaPatch === null || typeof metaPatch !== 'object') return undefined;
  const before = card.raw.meta ?? {};
  const after = mergePatch(before, metaPatch) as Record<string, unknown>;
  const label = isolateText(String(card.manifest.meta.label ?? id));
  const kept = new Set(formInputs(after).map((i) => i.key));
  const dropped = formInputs(before)
    .map((i) => i.key)
    .filter((k) => !kept.has(k));
  const writeable = (m: Record<string, unknown>) =>
    (m.writeable as { fromWebapp?: unknown } | undefined)?.fromWebapp === true;
  const parts: string[] = [];
  if (dropped.length)
    parts.push(
      `remove the input${dropped.length > 1 ? 's' : ''} ${dropped.map((k) => `“${isolateText(k)}”`).join(', ')}`,
    );
  if (writeable(before) && !writeable(after)) parts.push('stop taking entries from the web app');
  if (!parts.length) return undefined;
  return `Change “${label}”: ${parts.join(' and ')}.`;
}
