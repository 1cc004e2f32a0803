/**
 * How many metric names the catalogue does not know are kept as discoveries (docs/API.md
 * discoveries; limits.ts MAX_UNKNOWN_DISCOVERIES): a body listing 2,000 invented names must not
 * grow the discoveries list (and every later answer) without bound. Catalogue metrics and names
 * already recorded are always admitted; new unknown names only while fewer than `maxUnknown`
 * unknown names are recorded, in the order given.
 */
import { isKnownMetric } from './catalogue.js';

/**
 * Splits `candidates` (metric names with samples in one push) into those to record and those
 * refused. `recorded`: every name recorded so far. Pure; `isKnown` defaults to the catalogue.
 */
export function admitDiscoveries(
  candidates: Iterable<string>,
  recorded: Iterable<string>,
  maxUnknown: number,
  isKnown: (metric: string) => boolean = isKnownMetric,
): { admit: string[]; refused: string[] } {
  const already = new Set(recorded);
  let unknown = 0;
  for (const m of already) if (!isKnown(m)) unknown++;
  const admit: string[] = [];
  const refused: string[] = [];
  for (const m of candidates) {
    if (already.has(m) || isKnown(m)) admit.push(m);
    else if (unknown < maxUnknown) {
      unknown++;
      admit.push(m);
    } else refused.push(m);
  }
  return { admit, refused };
}
