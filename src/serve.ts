/**
 * The server process (loaded by main.ts): read the environment, open HEALTH_HOME, listen, and
 * shut down cleanly on SIGTERM/SIGINT (stop accepting, let in-flight requests finish, close the
 * store so the WAL is checkpointed).
 */
import { buildApp, newHttpApp } from './app.js';
import { publicBase } from './auth/origin.js';
import { ConfigError, loadConfig } from './config.js';
import { followingRequestLog } from './http/request-context.js';
import { openInstance } from './instance.js';

async function main(): Promise<void> {
  // everything Klebb creates in HEALTH_HOME (folders, the SQLite file and its -wal/-shm, cards)
  // is the owner's alone: folders 0700, files 0600
  process.umask(0o077);
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`klebb: cannot start: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  // the app (and its logger) first: the instance logs through it, with time, level and the id of
  // the request a line belongs to
  const app = newHttpApp(config);
  const inst = await openInstance(config, { log: followingRequestLog(app.log) });
  buildApp(inst, app);
  for (const w of config.warnings) app.log.warn(w);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    try {
      // chat turns stop first, so their open event streams end and do not hold the close up
      await Promise.all([inst.stopTurns(), app.close()]);
    } finally {
      try {
        await inst.close();
      } catch (err) {
        // nothing left to save: say what failed and still end cleanly
        app.log.error({ err }, 'closing the home failed at shutdown');
      }
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  const address = await app.listen({ port: config.port, host: config.host });
  // the URL a person should open: HEALTH_ORIGIN, else http://localhost:<port> (passkeys work on
  // `localhost`, the default relying party id, never on an address such as 127.0.0.1)
  const bound = app.server.address();
  const open = publicBase(
    undefined,
    config.auth.origin,
    typeof bound === 'object' && bound ? bound.port : config.port,
  );
  app.log.info(
    { home: config.home, address, url: open },
    `Klebb is running: open ${open} (listening on ${address})`,
  );
  // the first-start link, plain and on a line of its own between blank lines, so it can be
  // copied from a terminal or a log viewer without the log record's quotes and fields around it
  const setupLink = inst.auth.setupLink();
  if (setupLink) {
    process.stdout.write(
      `\nFirst start: open this one-time link on the phone or computer you will sign in with, to create your passkey:\n\n${setupLink}\n\n`,
    );
  }
}

main().catch((err) => {
  process.stderr.write(`klebb: failed to start: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
