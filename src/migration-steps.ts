/**
 * The migration steps the store runs but does not own (src/store/migrations.ts): the store sits
 * below the other layers, so whoever opens the database passes these in.
 */
import { rekeySamples } from './ingest/hae/rekey-samples.js';
import type { MigrationSteps } from './store/migrations.js';

/** Every step a migration may ask for. */
export const MIGRATION_STEPS: MigrationSteps = {
  rekeySamples: (db) => {
    rekeySamples(db);
  },
};
