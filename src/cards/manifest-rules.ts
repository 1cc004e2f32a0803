/**
 * The rule set shared by the strict validators (create/patch) and lenient loading: the required
 * core (`$schema`, `meta`, `meta.id`, `meta.label`) and every optional `meta` field. Each rule
 * lives in its own module; this file only lists them.
 */

import { checkCategory } from './categories.js';
import { describeValue, type Issue, isNonEmptyString, isPlainObject } from './field-issues.js';
import { isManifestSchemaId, MANIFEST_SCHEMA_IDS } from './manifest-schema-id.js';
import { checkCadence } from './validate-cadence.js';
import { checkIngest } from './validate-ingest.js';
import { checkScalarFields } from './validate-meta-scalars.js';
import { checkNotifications } from './validate-notifications.js';
import { checkMetaSchedule } from './validate-schedule.js';
import { checkViewConfigs } from './validate-views.js';
import { checkWriteable } from './validate-writeable.js';

/** Options of every manifest validator. */
export interface ManifestRuleOptions {
  /** HAE catalogue lookup for `meta.ingest.metric`; without it any non-empty metric passes. */
  isKnownMetric?: (metric: string) => boolean;
}

/**
 * The core a manifest needs before anything else can be judged (docs/MANIFEST-SCHEMA.md;
 * a failure is a 400): a JSON object, a known `$schema`, an object `meta` with non-empty string
 * `id` and `label`. Report-only issues (nothing is ever dropped for them).
 */
export function coreIssues(m: unknown): Issue[] {
  if (!isPlainObject(m))
    return [{ path: [], message: `manifest must be a JSON object, got ${describeValue(m)}` }];
  const issues: Issue[] = [];
  if (!isManifestSchemaId(m.$schema)) {
    issues.push({
      path: ['$schema'],
      message:
        m.$schema === undefined
          ? `$schema is required and must be "${MANIFEST_SCHEMA_IDS[0]}"`
          : `$schema must be "${MANIFEST_SCHEMA_IDS[0]}" (or the legacy "${MANIFEST_SCHEMA_IDS[1]}"), got ${describeValue(m.$schema)}`,
    });
  }
  const meta = m.meta;
  if (!isPlainObject(meta)) {
    issues.push({
      path: ['meta'],
      message: `meta is required and must be an object, got ${describeValue(meta)}`,
    });
    return issues;
  }
  if (typeof meta.id !== 'string' || meta.id === '') {
    issues.push({
      path: ['meta', 'id'],
      message: `meta.id is required and must be a non-empty string, got ${describeValue(meta.id)}`,
    });
  }
  if (!isNonEmptyString(meta.label)) {
    issues.push({
      path: ['meta', 'label'],
      message: `meta.label is required and must be a non-empty string, got ${describeValue(meta.label)}`,
    });
  }
  return issues;
}

/**
 * Every optional-field rule of docs/MANIFEST-SCHEMA.md applied to a manifest whose `meta` is an
 * object: scalars, category, view configs, writeable, ingest, cadence, notifications, the
 * card-level schedule. Does not look at `meta.id`, `meta.label` or `data`. Unknown keys pass.
 */
export function optionalFieldIssues(
  manifest: Record<string, unknown>,
  meta: Record<string, unknown>,
  opts: ManifestRuleOptions = {},
): Issue[] {
  return [
    ...checkScalarFields(manifest, meta),
    ...checkCategory(meta.category, ['meta', 'category']),
    ...checkViewConfigs(meta, ['meta']),
    ...checkWriteable(meta.writeable, ['meta', 'writeable'], meta),
    ...checkIngest(meta.ingest, ['meta', 'ingest'], opts.isKnownMetric),
    ...checkCadence(meta.cadence, ['meta', 'cadence']),
    ...checkNotifications(meta.notifications, ['meta', 'notifications']),
    ...checkMetaSchedule(meta.schedule, ['meta', 'schedule']),
  ];
}
