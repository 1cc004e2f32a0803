/**
 * "Add a card" for a phone metric that a card already follows: a second tap on the button, or
 * the request sent again after its answer was lost, would make a second card fed from the same
 * samples (`steps-2` beside `steps`), each day shown twice on Today. Like a card from a gallery
 * template, it is refused naming the card that is there, unless the client asks for a copy.
 */
import type { CardContext } from '../../cards/card-context.js';
import { KlebbError } from '../../errors.js';
import { ingestEntry } from './card-fit.js';
import { resolveMetric } from './format/catalogue.js';

/**
 * @throws 409 CARD_EXISTS naming `body.metric`, with the card's `id`, when a card follows the
 *   metric `metric` (a name or alias of the catalogue) already. An unknown metric passes (the
 *   card maker refuses it naming the field).
 */
export function assertNoCardFollows(ctx: Pick<CardContext, 'registry'>, metric: string): void {
  const entry = resolveMetric(metric);
  if (!entry) return;
  const card = ctx.registry.all().find((c) => ingestEntry(c.manifest.meta)?.key === entry.key);
  if (!card) return;
  throw new KlebbError(
    409,
    'CARD_EXISTS',
    `the card "${card.id}" already follows ${entry.key} from the phone; send copy: true to add another one`,
    [{ path: 'body.metric', message: `already followed by the card "${card.id}"` }],
    { id: card.id },
  );
}
