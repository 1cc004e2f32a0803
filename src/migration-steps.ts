/**
 * The migration steps the store runs but does not own (src/store/migrations.ts): the store sits
 * below the other layers, so whoever opens the database passes these in.
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import { UserSettings } from './home/user-settings.js';
import { unmarkGroupedParts } from './ingest/hae/part-of-day-keys.js';
import { rescaleAppleFractions } from './ingest/hae/percent-fractions.js';
import { redateUtcSamples } from './ingest/hae/redate-samples.js';
import { rekeySamples } from './ingest/hae/rekey-samples.js';
import { moveRenamedSamples } from './ingest/hae/rename-samples.js';
import { rekeySourceOrder } from './ingest/hae/source-order-keys.js';
import type { MigrationSteps } from './store/migrations.js';

/**
 * The person's zone of the home whose database `db` is (`HEALTH_HOME/db/klebb.sqlite`), from its
 * user settings; undefined (the server's zone) when none is set or the file is elsewhere.
 */
function homeZone(db: Database.Database): string | undefined {
  if (!db.name || db.memory) return undefined;
  return new UserSettings(path.dirname(path.dirname(db.name))).timeZone();
}

/** Every step a migration may ask for. */
export const MIGRATION_STEPS: MigrationSteps = {
  rekeySamples: (db) => {
    rekeySamples(db);
  },
  moveRenamedSamples: (db) => {
    moveRenamedSamples(db, homeZone(db));
  },
  redateUtcSamples: (db) => {
    redateUtcSamples(db, homeZone(db));
  },
  rescaleAppleFractions: (db) => {
    rescaleAppleFractions(db, homeZone(db));
  },
  rekeySourceOrder: (db) => {
    rekeySourceOrder(db, homeZone(db));
  },
  unmarkGroupedParts: (db) => {
    unmarkGroupedParts(db, homeZone(db));
  },
};
