import type Database from 'better-sqlite3';

/**
 * Migration steps whose work belongs to a layer above the store (the store imports none of
 * them): whoever opens the database passes them in (src/migration-steps.ts has the instance's).
 */
export interface MigrationSteps {
  /** Re-keys stored Health samples to content-only keys (migration 6). */
  rekeySamples(db: Database.Database): void;
  /** Moves Health samples stored under a name the catalogue now reads as a metric (migrations 9 and 14). */
  moveRenamedSamples(db: Database.Database): void;
  /** Moves Health samples timed in UTC to the person's date (migration 10). */
  redateUtcSamples(db: Database.Database): void;
  /** Reads the percentages an Apple Health import stored as fractions as percent (migration 12). */
  rescaleAppleFractions(db: Database.Database): void;
  /** Keys Health samples on their sources in one order, the same sample stored once (migration 15). */
  rekeySourceOrder(db: Database.Database): void;
  /** Keys Health samples a grouping within the day marked without the mark (migration 16). */
  unmarkGroupedParts(db: Database.Database): void;
}

/** One migration: SQL text, or a function given the database and the steps passed in. */
export type Migration = string | ((db: Database.Database, steps: MigrationSteps) => void);

/**
 * Schema migrations, applied in order; `PRAGMA user_version` counts how many ran. Never edit a
 * shipped migration: append a new one.
 *
 * - `card_state`: one row per card id that has data. `shape` is 'array' (top-level array,
 *   elements in `card_rows`), 'value' (object / primitive / null, JSON in `doc`) or 'none'
 *   (no data). `row_count` is kept current so listing cards never counts rows. `version` is the
 *   id of the card's latest change (the data ETag).
 * - `card_rows`: one store row per element of a top-level data array, ordered by `pos`. An
 *   expression index on `$.date` makes `[date="…"]` row paths an index lookup.
 * - `changes`: every mutation as a change set (actor, op, path, before, after): the audit trail
 *   and what undo is built on (STYLE "Writes as change sets"). Ids only grow: a new id is
 *   max(id)+1 and pruning never removes the newest rows (no AUTOINCREMENT, which would cost a
 *   sqlite_sequence write on every append).
 * - `conversations` / `conversation_messages` (2): chat transcripts, one store row per message,
 * ordered by `seq`; `active_at` orders the list by recency.
 * - `hae_samples` / `hae_pushes` / `hae_metrics_seen` (3): Health Auto Export and Apple Health
 *   samples, each stored once: `dedup_key` is the sample's 128-bit
 *   content hash (insert-or-ignore), `id` its arrival order, `vals` its canonical values as JSON.
 *   One `hae_pushes` row per webhook push or import (size, counts, the answer's summary as JSON);
 *   `hae_metrics_seen` feeds the discoveries (first seen, dismissed); `hae_block_memo` remembers
 *   metric blocks whose samples are all stored (content hash, including a fingerprint of the
 *   extraction code), so a re-sent block is not extracted again. Anything that deletes samples
 *   must empty `hae_block_memo` too.
 * - `change_sets` (4): every change belongs to one set (one chat turn, REST request, push, import
 *   or hand edit) with its actor; `undo_of` / `undone_by` link a set and the set that undid it.
 *   `changes.row_id` is the store row a row-level change touched (null: the whole data block or
 *   the manifest, op `manifest`, whose `path` is the file name) and `pos` its position, so undo
 *   can put exactly that row back. Changes recorded before this migration have no set.
 * - (5) `hae_samples` is deduplicated by `(metric, date, dedup_key)` instead of `dedup_key` alone,
 *   and that one index also serves the (metric, date) reads. Same rows, same uniqueness (the
 *   key hashes the metric and the timestamp the date is read from), but an import's inserts now
 *   land next to each other in the index (one metric, consecutive days) instead of on a random
 *   page per sample: a 1 GB Apple Health export went from minutes of index page writes to seconds.
 * - (6) sample keys depend on the sample's content only: stored samples numbered by their
 *   position among same-instant samples are re-keyed and the copies the old keys stored twice
 *   merged (the `rekeySamples` step, src/ingest/hae/rekey-samples.ts, passed in by the caller).
 * - (7) `hae_recompute`: sample metrics whose subscribed cards' rows are recomputed from the
 *   stored samples once the cards are loaded (src/ingest/hae/recompute.ts), then struck off.
 *   Filled with every stored metric: a day's row no longer depends on how its samples were
 *   batched into pushes, and copies of a sample held twice by one push or file count twice,
 *   so rows written before may be wrong. A later change of how rows are made appends a migration
 *   that lists its metrics here again.
 * - (8) `change_sets_actor` is dropped: every REST append, chat turn and push adds a change set,
 *   and keeping that index cost one more page written (and flushed) per write. The one query that
 *   could use it (the change sets of one exact actor, newest first, for History and undo) walks
 *   `change_sets` by id from the newest instead and stops at its page size; the bare-kind and
 *   conversation filters never used the index.
 * - (9) samples stored under a metric name the catalogue did not read then and reads now (camelCase
 *   `stepCount`, display names, HealthKit identifiers, stored as sent in lower case) are moved to
 *   the catalogue metric, read again in its unit and keyed as a push of that name is keyed now, a
 *   sample the metric held already kept once (the `moveRenamedSamples` step,
 *   src/ingest/hae/rename-samples.ts); their metrics' card rows are recomputed (`hae_recompute`).
 * - (10) samples timed in UTC (seconds since 1970, `Z`), stored on their UTC date, are moved to
 *   their date on the person's clock, where a push files them now, a sample that date held
 *   already kept once (the `redateUtcSamples` step, src/ingest/hae/redate-samples.ts); their
 *   metrics' card rows are recomputed.
 * - (11) `hae_card_rows`: per card and date, the row the phone's samples last wrote there, as
 *   canonical JSON (src/ingest/hae/phone-rows.ts), so a later push replaces that row and never a
 *   reading entered by hand beside it. Every stored metric is listed in `hae_recompute`, so the
 *   rows the phone wrote before are recognised (a card's row equal to the one its samples make is
 *   recorded as the phone's) before the first push.
 * - (12) percentages an Apple Health import stored as the fractions its export writes (walking
 *   asymmetry 0.05 for 5 %, the metrics that may be below 1 %) are read again as fractions and
 *   keyed as the import keys them now, a sample the metric held already kept once (the
 *   `rescaleAppleFractions` step, src/ingest/hae/percent-fractions.ts); their metrics' card rows
 *   are recomputed.
 * - (13) what is logged rather than measured (food, water, caffeine, drinks, insulin) adds the
 *   entries of sources that share no device (water from an app and a glass entered by hand),
 *   where the largest source's total was taken: every stored metric is listed in
 *   `hae_recompute` again, so the rows made by the older rule are recomputed.
 * - (14) samples stored under a name the catalogue reads now and did not before (a HealthKit
 *   identifier written as words, `Swimming Stroke Count`; Apple's `Resting Energy`) are moved to
 *   their metric as (9) moved the others (`moveRenamedSamples` again).
 * - (15) samples whose source lists several devices (`Watch|iPhone`) were keyed on that text as
 *   sent, so the same reading with its sources in another order was stored twice: each is keyed
 *   on its names in one order, a copy stored twice dropped (`rekeySourceOrder`,
 *   src/ingest/hae/source-order-keys.ts); the metrics that lost a copy are recomputed.
 * - (16) points of summed metrics a push grouped within the day (automation-aggregation Hours)
 *   were keyed with their `partOfDay` mark, so the same measurement sent with no header was
 *   stored twice: each marked away from midnight is keyed without the mark, a copy stored twice
 *   dropped (`unmarkGroupedParts`, src/ingest/hae/part-of-day-keys.ts).
 * - (17) `changes_card_manifest`: the manifest changes of a card, newest first, so a card's ETag
 *   (its newest change, to its file or its data) is read without walking its row changes.
 * - (18) `hae_restated`: the stored samples a push or import restated (their values before and
 *   after) and the parts after midnight it split off them, and `hae_pushes.change_set`, the
 *   change set it filled the cards in, so undoing that set puts the samples back as they were
 *   (src/ingest/hae/restated-samples.ts).
 * - (19) `idempotent_replies`: the answers of writes sent with an `Idempotency-Key`
 *   (src/http/idempotent-replies.ts), kept a day, so a write whose answer was lost to a restart
 *   of the server is answered again, not stored twice, when the client sends it again.
 */
export const MIGRATIONS: Migration[] = [
  `
  CREATE TABLE card_state (
    card_id    TEXT PRIMARY KEY,
    shape      TEXT NOT NULL CHECK (shape IN ('array','value','none')),
    doc        TEXT,
    row_count  INTEGER NOT NULL DEFAULT 0,
    version    INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE card_rows (
    id      INTEGER PRIMARY KEY,
    card_id TEXT NOT NULL,
    pos     INTEGER NOT NULL,
    body    TEXT NOT NULL
  );
  CREATE UNIQUE INDEX card_rows_pos ON card_rows (card_id, pos);
  CREATE INDEX card_rows_date ON card_rows (card_id, json_extract(body, '$.date'));
  CREATE TABLE changes (
    id         INTEGER PRIMARY KEY,
    ts         TEXT NOT NULL,
    actor      TEXT NOT NULL,
    card_id    TEXT NOT NULL,
    op         TEXT NOT NULL,
    path       TEXT,
    before     TEXT,
    after      TEXT,
    image_omitted INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX changes_card ON changes (card_id, id);
  `,
  `
  CREATE TABLE conversations (
    id         TEXT PRIMARY KEY,
    title      TEXT,
    created_at TEXT NOT NULL,
    active_at  TEXT NOT NULL
  );
  CREATE INDEX conversations_active ON conversations (active_at);
  CREATE TABLE conversation_messages (
    id              INTEGER PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL,
    role            TEXT NOT NULL CHECK (role IN ('user','assistant')),
    content         TEXT NOT NULL,
    extra           TEXT,
    created_at      TEXT NOT NULL
  );
  CREATE UNIQUE INDEX conversation_messages_seq ON conversation_messages (conversation_id, seq);
  `,
  `
  CREATE TABLE hae_pushes (
    id          INTEGER PRIMARY KEY,
    received_at TEXT NOT NULL,
    origin      TEXT NOT NULL,
    bytes       INTEGER NOT NULL,
    samples     INTEGER NOT NULL DEFAULT 0,
    new_samples INTEGER NOT NULL DEFAULT 0,
    skipped     INTEGER NOT NULL DEFAULT 0,
    summary     TEXT
  );
  CREATE INDEX hae_pushes_origin ON hae_pushes (origin, id);
  CREATE TABLE hae_samples (
    id        INTEGER PRIMARY KEY,
    dedup_key BLOB NOT NULL,
    metric    TEXT NOT NULL,
    date      TEXT NOT NULL,
    at        TEXT NOT NULL,
    span      TEXT NOT NULL CHECK (span IN ('day','sample')),
    source    TEXT,
    vals      TEXT NOT NULL,
    push_id   INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX hae_samples_key ON hae_samples (dedup_key);
  CREATE INDEX hae_samples_metric_date ON hae_samples (metric, date);
  CREATE TABLE hae_metrics_seen (
    metric        TEXT PRIMARY KEY,
    first_seen_at TEXT NOT NULL,
    last_seen_at  TEXT NOT NULL,
    dismissed_at  TEXT
  );
  CREATE TABLE hae_block_memo (
    hash    BLOB PRIMARY KEY,
    seen_at TEXT NOT NULL,
    summary TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX hae_block_memo_seen ON hae_block_memo (seen_at);
  `,
  `
  CREATE TABLE change_sets (
    id        INTEGER PRIMARY KEY,
    ts        TEXT NOT NULL,
    actor     TEXT NOT NULL,
    undo_of   INTEGER,
    undone_by INTEGER
  );
  CREATE INDEX change_sets_actor ON change_sets (actor, id);
  ALTER TABLE changes ADD COLUMN set_id INTEGER;
  ALTER TABLE changes ADD COLUMN row_id INTEGER;
  ALTER TABLE changes ADD COLUMN pos INTEGER;
  CREATE INDEX changes_set ON changes (set_id, id);
  `,
  `
  CREATE UNIQUE INDEX hae_samples_metric_date_key ON hae_samples (metric, date, dedup_key);
  DROP INDEX hae_samples_key;
  DROP INDEX hae_samples_metric_date;
  `,
  (db, steps) => steps.rekeySamples(db),
  `
  CREATE TABLE hae_recompute (metric TEXT PRIMARY KEY) WITHOUT ROWID;
  INSERT INTO hae_recompute SELECT DISTINCT metric FROM hae_samples;
  `,
  'DROP INDEX IF EXISTS change_sets_actor;',
  (db, steps) => steps.moveRenamedSamples(db),
  (db, steps) => steps.redateUtcSamples(db),
  `
  CREATE TABLE IF NOT EXISTS hae_card_rows (
    card_id TEXT NOT NULL,
    date    TEXT NOT NULL,
    body    TEXT NOT NULL,
    PRIMARY KEY (card_id, date)
  ) WITHOUT ROWID;
  INSERT OR IGNORE INTO hae_recompute SELECT DISTINCT metric FROM hae_samples;
  `,
  (db, steps) => steps.rescaleAppleFractions(db),
  `
  -- logged intakes: the sources that share no device added
  INSERT OR IGNORE INTO hae_recompute SELECT DISTINCT metric FROM hae_samples;
  `,
  (db, steps) => steps.moveRenamedSamples(db),
  (db, steps) => steps.rekeySourceOrder(db),
  (db, steps) => steps.unmarkGroupedParts(db),
  `CREATE INDEX IF NOT EXISTS changes_card_manifest ON changes (card_id, id) WHERE op = 'manifest';`,
  (db) => {
    // written to run again over a home whose version was set back (a restored older copy)
    db.exec(`
      CREATE TABLE IF NOT EXISTS hae_restated (
        id        INTEGER PRIMARY KEY,
        push_id   INTEGER NOT NULL,
        metric    TEXT NOT NULL,
        date      TEXT NOT NULL,
        dedup_key BLOB NOT NULL,
        at        TEXT NOT NULL,
        span      TEXT NOT NULL,
        source    TEXT,
        old_vals  TEXT,
        new_vals  TEXT NOT NULL,
        split_of  TEXT
      );
      CREATE INDEX IF NOT EXISTS hae_restated_push ON hae_restated (push_id);
    `);
    const columns = db.prepare("SELECT name FROM pragma_table_info('hae_pushes')").pluck().all();
    if (!columns.includes('change_set')) db.exec('ALTER TABLE hae_pushes ADD COLUMN change_set INTEGER');
    db.exec(
      'CREATE INDEX IF NOT EXISTS hae_pushes_change_set ON hae_pushes (change_set) WHERE change_set IS NOT NULL',
    );
  },
  `
  CREATE TABLE IF NOT EXISTS idempotent_replies (
    id          TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    status      INTEGER NOT NULL,
    body        TEXT NOT NULL,
    etag        TEXT,
    at          INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS idempotent_replies_at ON idempotent_replies (at);
  `,
];
