/**
 * "Fill <card> from the phone": a card that already shows what a newly sent metric measures, so
 * the phone can feed it instead of a second card being made beside it (a "Body weight" card from
 * the gallery and the phone's `weight_body_mass`). A card matches when it subscribes to nothing
 * and was made from the template of that metric (its id is the template's id, or that id with a
 * number `weight-2`; or its `meta.template` names the template), or its label is the template's
 * or the metric's own label ("Body weight").
 */
import type { CardContext } from '../../cards/card-context.js';
import type { Card } from '../../cards/card-registry.js';
import { subscriptionOf } from './cards.js';
import { resolveMetric } from './format/catalogue.js';
import { metricLabel } from './format/labels.js';
import { templateFor } from './metric-card.js';
import type { Discoveries, Discovery } from './service.js';

/** The card a metric can fill: its id and the label people read. */
export interface FillOffer {
  id: string;
  label: string;
}

/** A discovery with its readable name and, when one exists, the card it can fill. */
export type OfferedDiscovery = Discovery & { label: string; fill?: FillOffer };

const norm = (s: unknown) => (typeof s === 'string' ? s.trim().toLowerCase() : '');

function sameThing(card: Card, templateId: string | undefined, labels: readonly string[]): boolean {
  const meta = card.manifest.meta as Record<string, unknown>;
  if (templateId !== undefined) {
    if (card.id === templateId || new RegExp(`^${templateId}-\\d+$`).test(card.id)) return true;
    if (norm(meta.template) === templateId) return true;
  }
  return labels.includes(norm(meta.label));
}

/**
 * The first card (registry order) that shows what `metric` measures and subscribes to nothing,
 * or undefined. `templatesDir` is the folder of the shipped templates.
 */
export function fillOfferFor(
  ctx: Pick<CardContext, 'registry'>,
  metric: string,
  templatesDir: string,
): FillOffer | undefined {
  const entry = resolveMetric(metric);
  if (!entry) return undefined;
  const template = templateFor(entry, templatesDir);
  const labels = [norm(metricLabel(entry.key)), norm(template?.manifest.meta.label)].filter((l) => l !== '');
  for (const card of ctx.registry.all()) {
    if (subscriptionOf(card)) continue;
    if (sameThing(card, template?.id, labels))
      return { id: card.id, label: String(card.manifest.meta.label) };
  }
  return undefined;
}

/** `d` with every metric's readable label, and the card each new catalogue metric can fill. */
export function withFillOffers(
  d: Discoveries,
  ctx: Pick<CardContext, 'registry'>,
  templatesDir: string,
): {
  undismissed: { supported: Record<string, OfferedDiscovery[]>; unsupported: OfferedDiscovery[] };
  dismissed: (Discoveries['dismissed'][number] & { label: string })[];
} {
  const labelled = (x: Discovery) => ({ ...x, label: metricLabel(x.metric) });
  const supported: Record<string, OfferedDiscovery[]> = {};
  for (const [category, list] of Object.entries(d.undismissed.supported)) {
    supported[category] = (list ?? []).map((x) => {
      const fill = fillOfferFor(ctx, x.metric, templatesDir);
      return { ...labelled(x), ...(fill ? { fill } : {}) };
    });
  }
  return {
    undismissed: { supported, unsupported: d.undismissed.unsupported.map(labelled) },
    dismissed: d.dismissed.map((x) => ({ ...x, label: metricLabel(x.metric) })),
  };
}
