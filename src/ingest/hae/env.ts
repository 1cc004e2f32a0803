/**
 * Limits and environment of Health Auto Export ingestion.
 *
 * `readHaeEnv` holds the rules of the ingestion variables; src/config.ts calls it while reading
 * the environment, so a bad value stops the start like any other (exit 2, naming the variable).
 */

/** Largest webhook body by default, bytes ("Body ≤ 100 MB"; 10^6-byte MB). */
export const DEFAULT_HAE_MAX_BYTES = 100 * 1000 * 1000;

/**
 * Bodies up to this size are read into memory and parsed with one `JSON.parse`; larger ones are
 * spooled to disk and walked metric block by metric block with stream-json, so memory stays
 * bounded by the largest block, not the body. Bytes.
 */
export const HAE_INLINE_MAX_BYTES = 4 * 1000 * 1000;

/** Quarantined bodies kept (the newest). */
export const HAE_QUARANTINE_KEEP = 5;

/** Largest Apple Health `export.xml` upload by default, bytes (real files reach gigabytes). */
export const DEFAULT_APPLE_HEALTH_MAX_BYTES = 4 * 1000 * 1000 * 1000;

/** Pushes kept in the `hae_pushes` table (older ones are deleted; their samples stay). */
export const HAE_PUSHES_KEEP = 1000;

/** Block memos (re-sent blocks not extracted again) not seen for this many days are forgotten. */
export const HAE_MEMO_KEEP_DAYS = 30;

/** Warning lines kept per push answer (a bad 100 MB body must not answer with megabytes of text). */
export const HAE_MAX_WARNINGS = 50;

/**
 * Filling a card reads the stored samples of a few dates at a time: at most this many samples per
 * read (a date with more is read alone), so memory stays bounded on minute-level histories. A
 * fill in steps (a streamed push, an import) yields to the event loop after each read: a read of
 * 2 000 samples and its rows take a few tens of ms, so the server keeps answering meanwhile.
 */
export const HAE_FILL_SAMPLES_PER_READ = 2_000;

/** ... and at most this many dates per read. */
export const HAE_FILL_DATES_PER_READ = 400;

/** Samples inserted per transaction when a push is large (the event loop gets a turn between batches). */
export const HAE_INSERT_BATCH = 5000;

/** What `readHaeEnv` returns. */
export interface HaeEnv {
  /** KLEBB_HAE_MAX_BYTES (default 100 MB): largest webhook body, bytes. */
  maxBytes: number;
  /** KLEBB_APPLE_HEALTH_MAX_BYTES (default 4 GB): largest `export.xml` upload, bytes. */
  appleHealthMaxBytes: number;
  /** HEALTH_AUTO_EXPORT_TOKEN: the legacy token, migrated once into config.json at boot. */
  legacyToken?: string;
}

function bytesVar(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw new Error(`${name}: must be a whole number of bytes (at least 1), got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

/**
 * Reads the ingestion variables from `env` (default `process.env`).
 * @throws Error naming the variable when a size is not a positive whole number.
 */
export function readHaeEnv(env: Record<string, string | undefined> = process.env): HaeEnv {
  const legacy = env.HEALTH_AUTO_EXPORT_TOKEN?.trim();
  return {
    maxBytes: bytesVar(env, 'KLEBB_HAE_MAX_BYTES', DEFAULT_HAE_MAX_BYTES),
    appleHealthMaxBytes: bytesVar(env, 'KLEBB_APPLE_HEALTH_MAX_BYTES', DEFAULT_APPLE_HEALTH_MAX_BYTES),
    ...(legacy ? { legacyToken: legacy } : {}),
  };
}
