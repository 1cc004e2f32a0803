/**
 * A database a later version of Klebb migrated (a server put back to an older image, a home copied
 * from a newer one) stops the start with a message naming the file, both schema numbers and what
 * to do, instead of running this version's code over tables it does not know; the file is left
 * as it was. A database at this version's schema, or an older one, starts as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openInstance } from '../../src/instance.js';
import { NewerDatabaseError } from '../../src/store/database.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { sandboxHome } from '../helpers/sandbox-home.js';
import { startServer } from '../helpers/server.js';

const configOf = (home: string) =>
  loadConfig({ HEALTH_HOME: home, PORT: '0', HOST: '127.0.0.1', KLEBB_LOG_LEVEL: 'silent' });

describe('a database a later version migrated', () => {
  it('is refused at start, named with both schemas; the file is unchanged', async () => {
    const box = sandboxHome();
    try {
      // a home with a card, closed cleanly
      const first = await startServer({ home: box.home });
      const made = await first.api('/api/manifests', {
        json: {
          $schema: 'klebb.datafile.v1',
          meta: { id: 'w', label: 'W' },
          data: [{ date: '2026-04-01', kg: 80 }],
        },
      });
      expect(made.status, made.text).toBe(201);
      await first.close({ keepHome: true });
      const file = path.join(box.home, 'db', 'klebb.sqlite');
      const later = MIGRATIONS.length + 2;
      const raw = new Database(file);
      raw.pragma(`user_version = ${later}`);
      raw.close();
      const before = fs.readFileSync(file);

      const opened = openInstance(configOf(box.home));
      await expect(opened).rejects.toBeInstanceOf(NewerDatabaseError);
      await expect(opened).rejects.toThrow(
        `the database file ${file} was written by a later version of Klebb (schema ${later}; this version knows schemas up to ${MIGRATIONS.length}). Nothing was changed.`,
      );
      expect(fs.readFileSync(file).equals(before)).toBe(true);

      // put back at this version's schema, it starts and holds the card
      const back = new Database(file);
      back.pragma(`user_version = ${MIGRATIONS.length}`);
      back.close();
      const again = await startServer({ home: box.home });
      try {
        expect((await again.api('/api/manifests/w/rows')).body.total).toBe(1);
      } finally {
        await again.close({ keepHome: true });
      }
    } finally {
      box.remove();
    }
  });
});
