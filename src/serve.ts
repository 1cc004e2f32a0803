/**
 * The server process (loaded by main.ts): read the environment, open HEALTH_HOME, listen, and
 * shut down cleanly on SIGTERM/SIGINT (stop accepting, let in-flight requests finish, close the
 * store so the WAL is checkpointed).
 */
import type { FastifyInstance } from 'fastify';
import { buildApp, newHttpApp } from './app.js';
import { publicBase } from './auth/origin.js';
import { readCommandLine } from './command-line.js';
import { ConfigError, loadConfig } from './config.js';
import { homeFileProblem } from './home/home-files.js';
import { homeFolderProblem, homeWriteProblem } from './home/home-folders.js';
import { homeLayout } from './home/home-layout.js';
import { keepNewFilesOwnerOnly } from './home/owner-only.js';
import { HomeInUseError, type ServerLock, takeServerLock } from './home/server-lock.js';
import { listeningOn } from './http/listen-address.js';
import { portInUseMessage, portProblem } from './http/port-check.js';
import { followingRequestLog } from './http/request-context.js';
import { openInstance } from './instance.js';
import { DamagedDatabaseError, NewerDatabaseError } from './store/database.js';

async function main(): Promise<void> {
  // --help, or an argument meant as a setting: answered before the home is made or a port taken
  const line = readCommandLine('server', process.argv.slice(2));
  if (!line.run) {
    (line.code === 0 ? process.stdout : process.stderr).write(`${line.text}\n`);
    process.exit(line.code);
  }
  keepNewFilesOwnerOnly();
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
  // a port that is taken stops the start before the home is made or a set-up link printed
  const taken = await portProblem(config.host, config.port);
  if (taken) {
    process.stderr.write(`klebb: cannot start: ${taken}\n`);
    process.exit(2);
  }
  // a home that is a file or may not be written stops the start before anything is created in it
  // (the check itself makes the folders that are missing)
  const folders = homeFolderProblem(config.home, config.dataDir);
  if (folders) {
    process.stderr.write(`klebb: cannot start: ${folders}\n`);
    process.exit(2);
  }
  // a file of the home the user running Klebb may not read or write (a home copied or restored
  // by another user): named, before the lock or the database is opened
  const homeFiles = homeFileProblem(config.home, config.dataDir);
  if (homeFiles) {
    process.stderr.write(`klebb: cannot start: ${homeFiles}\n`);
    process.exit(2);
  }
  // a second server on the same home stops here, before it watches or writes anything (after the
  // port check, which creates nothing in the home)
  let lock: ServerLock;
  try {
    lock = takeServerLock(config.home, homeLayout(config.home, config.dataDir).dbDir);
  } catch (err) {
    if (!(err instanceof HomeInUseError)) throw err;
    process.stderr.write(`klebb: cannot start: ${err.message}\n`);
    process.exit(2);
  }
  // the app (and its logger) first: the instance logs through it, with time, level and the id of
  // the request a line belongs to
  const app = newHttpApp(config);
  let inst: Awaited<ReturnType<typeof openInstance>>;
  try {
    inst = await openInstance(config, { log: followingRequestLog(app.log) });
  } catch (err) {
    // a folder of the home that refuses writes (reports/ on a read-only mount, a full disk): which
    // one and what to do, not a stack
    const refused = homeWriteProblem(err);
    if (refused) {
      process.stderr.write(`klebb: cannot start: ${refused}\n`);
      process.exit(2);
    }
    // a damaged database file, or one a later version wrote: its path and what to do, not a stack
    if (!(err instanceof DamagedDatabaseError || err instanceof NewerDatabaseError)) throw err;
    process.stderr.write(`klebb: cannot start: ${err.message}\n`);
    process.exit(1);
  }
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
      lock.release();
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    // taken between the check above and now: the same sentence
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    process.stderr.write(`klebb: cannot start: ${portInUseMessage(config.host, config.port)}\n`);
    await inst.close();
    process.exit(2);
  }
  // the URL a person should open: HEALTH_ORIGIN, else http://localhost:<port> (passkeys work on
  // `localhost`, the default relying party id, never on an address such as 127.0.0.1)
  const bound = app.server.address();
  const open = publicBase(
    undefined,
    config.auth.origin,
    typeof bound === 'object' && bound ? bound.port : config.port,
  );
  // where the socket listens, in words (not the one URL listen() picked: 127.0.0.1 for 0.0.0.0)
  const address = listeningOn(bound);
  app.log.info(
    { home: config.home, address, url: open },
    `Klebb is running: open ${open}; listening on ${address}`,
  );
  // printed only once the server listens, so a start that fails never shows a link that cannot work
  const setupLink = inst.auth.setupLink();
  if (setupLink) printSetupLink(app, setupLink, inst.firstStart);
}

/**
 * The one-time link that registers the first passkey, at every start while no passkey exists
 * (a restart makes a new one): as a log record, and plain on a line of its own between blank
 * lines, so it can be copied from a terminal or a log viewer without the record's quotes and
 * fields around it. "First start" only on the start that created the home.
 */
function printSetupLink(app: FastifyInstance, link: string, firstStart: boolean): void {
  app.log.info(
    { firstStart },
    `No passkey yet. Register the first one with this one-time link (valid until then, or until a restart): ${link}`,
  );
  const lead = firstStart ? 'First start: open' : 'No passkey yet: open';
  const after = firstStart ? '' : ' (a new link at every start until then; earlier ones no longer work)';
  process.stdout.write(
    `\n${lead} this one-time link on the phone or computer you will sign in with, to create your passkey${after}:\n\n${link}\n\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`klebb: failed to start: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
