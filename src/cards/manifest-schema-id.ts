/**
 * The `$schema` ids of the manifest format (docs/MANIFEST-SCHEMA.md "File structure"; the examples
 * README: the legacy id of the same format must still load).
 */

/** Current id first, then the legacy `eddzhealth` id of the same format. */
export const MANIFEST_SCHEMA_IDS = ['klebb.datafile.v1', 'eddzhealth.datafile.v1'] as const;

/** The id written into new manifests. */
export const CURRENT_MANIFEST_SCHEMA_ID = MANIFEST_SCHEMA_IDS[0];

/** One of `MANIFEST_SCHEMA_IDS`. */
export type ManifestSchemaId = (typeof MANIFEST_SCHEMA_IDS)[number];

/** True when `v` is the current or the legacy `$schema` id. */
export function isManifestSchemaId(v: unknown): v is ManifestSchemaId {
  return typeof v === 'string' && (MANIFEST_SCHEMA_IDS as readonly string[]).includes(v);
}
