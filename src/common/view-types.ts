/**
 * The views cards appear on and what a view read says of cards that did not load
 * (`GET /api/views/:view`, `GET /api/manifests`; docs/API.md "Views"), typed once for the server
 * (src/cards/) and the web app. No Node imports.
 */

/** The view names `/api/views/:view` accepts. */
export const VIEW_NAMES = ['view', 'trends', 'calendar', 'reports', 'dayDetail'] as const;
export type ViewName = (typeof VIEW_NAMES)[number];

/** One entry of the `errors` list of `GET /api/manifests`. */
export interface LoadError {
  /** File name inside the data folder. */
  file: string;
  /** Card id when one could be read. */
  id?: string;
  /** Stable code: INVALID_JSON, UNSUPPORTED_SCHEMA, MISSING_FIELD, DUPLICATE_ID, FIELD_DROPPED, FIELD_UNUSABLE, READ_FAILED, IMPORT_FAILED, FILE_IN_CLOUD, FILE_TOO_LARGE (docs/API.md "List cards"). */
  code: string;
  message: string;
  /** Field path for FIELD_DROPPED, FIELD_UNUSABLE and MISSING_FIELD. */
  path?: string;
  /** Line of the file (from 1) where an INVALID_JSON file's mistake is. */
  line?: number;
}
