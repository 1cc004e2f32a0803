/** Health Auto Export ingestion, the pure core: payload → samples → rows (see each module). */
export { aggregateRows, type HaeRow } from './aggregate.js';
export {
  type AggregationKind,
  CATALOGUE,
  type CatalogueEntry,
  catalogueForPrompt,
  type HaeCategory,
  isKnownMetric,
  type RowField,
  resolveMetric,
} from './catalogue.js';
export { type MetricBlock, type NormalisedPayload, normalisePayload } from './payload.js';
export { dedupKeyOf, type Sample, type SampleSpan, type SampleValue } from './sample.js';
export { type ExtractResult, extractSamples } from './samples.js';
export { canonicalTimestamp, type HaeTime, parseHaeTimestamp } from './timestamps.js';
