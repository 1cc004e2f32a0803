/**
 * The dashboard's gentle prompts (docs/API.md "Suggestions and nudges"): the chat's starter chips,
 * combined-view suggestions and the staleness nudge, each dismissal kept on the server
 * (dismissals.ts). Signed-in callers only (the gate's default).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findCard } from '../cards/card-context.js';
import { isKnownCategory } from '../cards/categories.js';
import { badRequest, notFound } from '../errors.js';
import type { Instance } from '../instance.js';
import { combinationSuggestions, suggestionKey } from './combination-suggestions.js';
import { dismissalFiles } from './dismissals.js';
import { hygieneScan } from './hygiene.js';
import { starterPrompts } from './starter-prompts.js';
import { dismissedCardIds } from './suggestion-dismissal.js';

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

type CategoryReq = FastifyRequest<{ Params: { category: string } }>;
type CardReq = FastifyRequest<{ Params: { cardId: string } }>;

/** Registers the prompt, suggestion and nudge routes. */
export function insightRoutes(app: FastifyInstance, inst: Instance): void {
  const ctx = inst.cards;
  const dismissed = dismissalFiles(inst.layout.metaDir);

  app.get('/api/prompts', async () => ({ prompts: starterPrompts(ctx) }));

  app.get('/api/cc-suggestions', async () => ({
    suggestions: combinationSuggestions(ctx, dismissed.suggestions.read()),
  }));

  app.post('/api/cc-suggestions/:category/dismiss', async (req: CategoryReq) => {
    const { category } = req.params;
    if (!isKnownCategory(category)) {
      throw notFound(`no category "${category}"`, 'NOT_FOUND');
    }
    const cardIds = dismissedCardIds(req.body, (id) => ctx.registry.get(id) !== undefined);
    dismissed.suggestions.add(suggestionKey(category, cardIds));
    return { ok: true, category, cardIds: [...cardIds].sort() };
  });

  app.get('/api/hygiene', async () => {
    const keys = dismissed.hygiene.read();
    const findings = hygieneScan(ctx, { timeZone: inst.user.timeZone(), kinds: ['stale'] })
      .filter((f) => !keys.has(`${f.cardId}::${f.kind}`))
      .map((f) => {
        const meta = findCard(ctx, f.cardId).manifest.meta;
        return { ...f, label: String(meta.label), emoji: typeof meta.emoji === 'string' ? meta.emoji : null };
      });
    return { findings };
  });

  app.post('/api/hygiene/:cardId/dismiss', async (req: CardReq) => {
    const { cardId } = req.params;
    findCard(ctx, cardId);
    const kind = isObject(req.body) && req.body.kind !== undefined ? req.body.kind : 'stale';
    if (kind !== 'stale' && kind !== 'growth' && kind !== 'orphaned-input') {
      const message = 'must be stale, growth or orphaned-input';
      throw badRequest(`kind ${message}`, [{ path: 'body.kind', message }]);
    }
    dismissed.hygiene.add(`${cardId}::${kind}`);
    return { ok: true, cardId, kind };
  });
}
