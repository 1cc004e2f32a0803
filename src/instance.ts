/**
 * One running instance: its HEALTH_HOME opened (folders, database, cards loaded, first-boot
 * welcome card, file watcher) and closed cleanly (watcher stopped, WAL checkpointed). Nothing in
 * here knows about HTTP; buildApp serves an Instance.
 */

import { EventEmitter, setMaxListeners } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { type AuthDeps, AuthService } from './auth/auth-service.js';
import type { CardContext } from './cards/card-context.js';
import { createCard } from './cards/card-crud.js';
import { noteDataWrite } from './cards/card-etag.js';
import { type CardEvent, CardLoader } from './cards/card-loader.js';
import { CardRegistry } from './cards/card-registry.js';
import { type CardWatcher, watchCards } from './cards/card-watcher.js';
import { isManifestFileName } from './cards/manifest-file.js';
import { repairInterruptedWrites } from './cards/startup-repair.js';
import { newViewCache } from './cards/view-data.js';
import { WATCH_POLL_MS, watchModeFor } from './cards/watch-mode.js';
import { autoHideWelcome, autoHideWelcomeAtStart } from './cards/welcome-auto-hide.js';
import { ConversationStore } from './chat/conversations/conversation-store.js';
import { TurnHub } from './chat/turns/turn-hub.js';
import type { Config } from './config.js';
import { backupsDir } from './data/backups.js';
import { recoverImport } from './data/import-job.js';
import { removeLeftOverCopies } from './data/leftover-copies.js';
import { type HomeLayout, homeLayout } from './home/home-layout.js';
import { serverTimeZone, serverZoneWarning } from './home/server-zone.js';
import { UserSettings } from './home/user-settings.js';
import { welcomeManifest } from './home/welcome-card.js';
import { IdempotentReplies } from './http/idempotent-replies.js';
import { Metrics } from './http/metrics.js';
import { HaeIngest } from './ingest/hae/service.js';
import { followCardDeletions } from './insights/deleted-card-dismissals.js';
import { dismissalFiles } from './insights/dismissals.js';
import { SERVER_SQLITE_CACHE_KIB } from './limits.js';
import { MIGRATION_STEPS } from './migration-steps.js';
import { type PushDeps, PushService } from './push/push-service.js';
import { ReportsService } from './reports/reports-service.js';
import { CardDataStore } from './store/card-data-store.js';
import { closeDatabase, type Db, openDatabase, setWriteGate } from './store/database.js';
import { HomeFreeze } from './store/home-freeze.js';

/** Minimal logger shape (pino's) so the instance can be opened without Fastify. */
export interface InstanceLogger {
  info: (obj: object, msg?: string) => void;
  warn: (obj: object, msg?: string) => void;
}

/** An open HEALTH_HOME. */
export interface Instance {
  config: Config;
  layout: HomeLayout;
  /** True when this start created the home (no database and no card files were there). */
  firstStart: boolean;
  db: Db;
  cards: CardContext;
  /** Settings the person's browser reports (time zone). */
  user: UserSettings;
  /** Chat transcripts. */
  conversations: ConversationStore;
  /** Running and lingering conversation turns. */
  turns: TurnHub;
  /** Health Auto Export webhook and Apple Health import: samples store, token, pushes. */
  hae: HaeIngest;
  /** Passkeys, sessions, invites and agent tokens. */
  auth: AuthService;
  /** Web Push: VAPID keys, subscriptions, reminder state and the minute scheduler. */
  push: PushService;
  /** Uploaded reports: the store, the background reading, verify / re-run / delete. */
  reports: ReportsService;
  /** Card events (`card-changed`, `card-removed`, `data-changed`) for live updates. */
  events: EventEmitter<{ card: [CardEvent] }>;
  /** Refuses writes made for clients while an import or restore is applied (src/store/home-freeze.ts). */
  freeze: HomeFreeze;
  /** Answers of writes sent with an `Idempotency-Key`, for a retry of them (src/http/idempotent-replies.ts). */
  replies: IdempotentReplies;
  /** Prometheus metrics of this instance (`GET /metrics`). */
  metrics: Metrics;
  /** Aborted when the instance begins to shut down: every chat turn listens to it. */
  shutdownSignal: AbortSignal;
  /**
   * Stops every running chat turn (conversation or not) and waits for them: they end as
   * `stopped`, the user's message kept and no half reply stored. Called before the HTTP server
   * closes, so open event streams end instead of holding the close up.
   */
  stopTurns(): Promise<void>;
  /** Stops the watcher and closes the database (checkpointing the WAL). Safe to call twice. */
  close(): Promise<void>;
}

const silent: InstanceLogger = { info: () => {}, warn: () => {} };

/** Whether `layout` is a brand-new home: no database and no card file yet. */
function isNewHome(layout: HomeLayout): boolean {
  return (
    !fs.existsSync(layout.dbFile) &&
    (!fs.existsSync(layout.dataDir) || !fs.readdirSync(layout.dataDir).some(isManifestFileName))
  );
}

/**
 * The home's folders and its two database connections (the chat's commits with
 * synchronous=NORMAL), both gated by one freeze for imports and restores.
 */
function openDatabases(layout: HomeLayout): { db: Db; chatDb: Db; freeze: HomeFreeze } {
  fs.mkdirSync(layout.dataDir, { recursive: true });
  fs.mkdirSync(layout.metaDir, { recursive: true });
  const cacheKiB = SERVER_SQLITE_CACHE_KIB;
  const db = openDatabase(layout.dbFile, { steps: MIGRATION_STEPS, cacheKiB });
  const chatDb = openDatabase(layout.dbFile, { synchronous: 'NORMAL', steps: MIGRATION_STEPS, cacheKiB });
  const freeze = new HomeFreeze();
  setWriteGate(db, freeze.check);
  setWriteGate(chatDb, freeze.check);
  return { db, chatDb, freeze };
}

/** The card context over `store`: a new registry, its loader and view cache, the person's zone. */
function newCardContext(
  layout: HomeLayout,
  store: CardDataStore,
  emit: (e: CardEvent) => void,
  user: UserSettings,
  log: InstanceLogger,
): CardContext {
  const registry = new CardRegistry();
  const ctx: CardContext = {
    dataDir: layout.dataDir,
    registry,
    store,
    loader: new CardLoader(layout.dataDir, registry, store, emit, log),
    emit: (e) => {
      if (e.type === 'data-changed') noteDataWrite(ctx, e.id, e.version);
      emit(e);
    },
    views: newViewCache(),
    stamps: new Map(),
    dataWrites: new Map(),
    timeZone: () => user.timeZone(),
  };
  return ctx;
}

/**
 * What a crash or a stop cut short, put right before the card files are read: an import or
 * restore (finished or undone), database copies an export or snapshot left, card writes, the
 * rows of a large file being loaded (the file is read again).
 * @returns the cards the home knew before its files are read (a card added since is an
 *   arrival), taken once the import is settled and before interrupted writes are.
 */
function settleInterrupted(db: Db, layout: HomeLayout, store: CardDataStore, log: InstanceLogger): string[] {
  const recovered = recoverImport(db, layout);
  if (recovered)
    log.warn({ job: recovered.id, outcome: recovered.recovered }, 'an interrupted import was recovered');
  const leftovers = removeLeftOverCopies(layout.home, backupsDir(layout.home));
  if (leftovers.length > 0) log.info({ removed: leftovers }, 'removed database copies a crash left behind');
  const knownBefore = [...store.allStates().keys()];
  for (const r of repairInterruptedWrites(layout.dataDir, store)) log.info(r, 'settled an interrupted write');
  const unfinished = store.dropUnfinishedStaging();
  if (unfinished > 0) log.info({ cards: unfinished }, 'removed the rows of an interrupted large file load');
  return knownBefore;
}

/**
 * Reads every card file, records as hand edits the files edited while the server was stopped,
 * and from then on records each change on disk; makes the welcome card on a new home, and
 * switches it off when other cards are there (found now, or dropped in later).
 * @param knownBefore the cards the database knew before the files were read.
 */
function loadCards(
  layout: HomeLayout,
  cards: CardContext,
  fresh: boolean,
  knownBefore: string[],
  log: InstanceLogger,
): void {
  const { loader } = cards;
  loader.scanAll();
  loader.recordEditsWhileStopped();
  loader.recordChanges = true;
  if (fresh) {
    createCard(cards, welcomeManifest(), 'system');
    log.info({ home: layout.home }, 'new HEALTH_HOME: created the welcome card');
  }
  if (autoHideWelcomeAtStart(cards, knownBefore))
    log.info({}, 'cards found beside the welcome card: switched it off');
  loader.onCardArrived = (id) => {
    if (autoHideWelcome(cards, id)) log.info({ id }, 'first card added: switched the welcome card off');
  };
}

/** Watches the data folder for hand edits (polled where events do not arrive), once it is ready. */
async function startWatcher(
  config: Config,
  layout: HomeLayout,
  loader: CardLoader,
  log: InstanceLogger,
): Promise<CardWatcher> {
  const mode = watchModeFor(layout.dataDir, config.watchPoll);
  if (mode.poll)
    log.info({ dataDir: layout.dataDir, everyMs: WATCH_POLL_MS }, `data folder polled: ${mode.why}`);
  const watcher = watchCards(
    layout.dataDir,
    loader,
    (err) => log.warn({ err: err.message }, 'file watcher error'),
    { poll: mode.poll },
  );
  await watcher.ready;
  return watcher;
}

/** Web Push and the reminders' scheduler (not started in the demo, which sends nothing). */
function startPush(
  config: Config,
  layout: HomeLayout,
  cards: CardContext,
  user: UserSettings,
  metrics: Metrics,
  log: InstanceLogger,
  deps: PushDeps | undefined,
): PushService {
  // the server's zone is read when first needed: Intl's time-zone data (about 8 MB resident)
  // stays unloaded in a home that has no reminders and no time zone of its own
  let serverZone: string | undefined;
  const push = new PushService({
    home: layout.home,
    subject: config.push.subject,
    instanceName: config.instanceName,
    cards,
    timeZone: () => {
      const own = user.timeZone();
      if (own !== undefined) return own;
      if (serverZone === undefined) {
        // an empty or unknown TZ: said once, and the clock's own zone (UTC) used, not a name
        // every date routine refuses
        serverZone = serverTimeZone();
        const warning = serverZoneWarning(process.env);
        if (warning) log.warn({ tz: process.env.TZ }, warning);
      }
      return serverZone;
    },
    log,
    allowPrivateEndpoints: config.push.allowPrivateEndpoints,
    deps,
    onTickLag: (seconds) => metrics.observeSchedulerLag(seconds),
  });
  if (!config.demo) push.start();
  return push;
}

/** Keeps the nudges dismissed for a card through its deletion and an undo of it (never throws). */
function followDismissedNudges(
  events: EventEmitter<{ card: [CardEvent] }>,
  layout: HomeLayout,
  log: InstanceLogger,
): void {
  const dismissedNudges = followCardDeletions(
    dismissalFiles(layout.metaDir).hygiene,
    path.join(layout.metaDir, 'hygiene-dismissed.deleted-cards.json'),
  );
  events.on('card', (e) => {
    try {
      dismissedNudges(e);
    } catch (err) {
      log.warn({ err, cardId: e.id }, 'could not update the nudges dismissed for a deleted card');
    }
  });
}

/**
 * Closes both connections, checkpointing the WAL. A checkpoint that could not finish (a reader,
 * a full disk) leaves the rest in the WAL, where the next start finds it: said, never a crash.
 */
function closeDatabases(db: Db, chatDb: Db, log: InstanceLogger): void {
  for (const [name, handle] of [
    ['chat', chatDb],
    ['main', db],
  ] as const) {
    const r = closeDatabase(handle);
    if (!r.complete) {
      log.warn(
        { connection: name, walFrames: r.walFrames, checkpointed: r.checkpointed, error: r.error },
        'the database WAL could not be fully checkpointed at shutdown; it stays beside the database and is applied on the next start',
      );
    }
  }
}

/**
 * Opens (creating on first boot) the instance's home. On a brand-new home (no database and no
 * manifest files yet) the welcome card is created.
 * @param opts.watch start the file watcher (default true).
 */
export async function openInstance(
  config: Config,
  opts: { watch?: boolean; log?: InstanceLogger; auth?: AuthDeps; push?: PushDeps } = {},
): Promise<Instance> {
  const log = opts.log ?? silent;
  const layout = homeLayout(config.home, config.dataDir);
  const fresh = isNewHome(layout);
  const { db, chatDb, freeze } = openDatabases(layout);
  const events = new EventEmitter<{ card: [CardEvent] }>();
  // every open page listens (GET /api/events): no listener cap
  events.setMaxListeners(0);
  const store = new CardDataStore(db);
  const pruned = store.changes.prune();
  if (pruned > 0) log.info({ pruned }, 'pruned old change sets');
  const user = new UserSettings(layout.home);
  const cards = newCardContext(layout, store, (e) => events.emit('card', e), user, log);
  // the person's zone dates instants a push writes in UTC (seconds since 1970, `Z`)
  const hae = new HaeIngest({ db, layout, cards, env: config.hae, log, timeZone: () => user.timeZone() });
  const auth = new AuthService(config, opts.auth);
  if (auth.passkeys.brokenReason) {
    log.warn(
      { file: auth.passkeys.file, reason: auth.passkeys.brokenReason },
      'the passkey file cannot be read: nobody can sign in or register until it is fixed',
    );
  }
  const knownBefore = settleInterrupted(db, layout, store, log);
  loadCards(layout, cards, fresh, knownBefore, log);
  // pushes a stop cut short keep their samples, whose cards are then filled like those below
  hae.settleInterrupted();
  // card rows a migration (or a push cut short) left possibly wrong are recomputed from the
  // stored samples, once
  hae.recomputePending();
  // from here on, a card that gains or changes meta.ingest is filled from the stored samples
  hae.followCards(events);
  const watcher = opts.watch === false ? undefined : await startWatcher(config, layout, cards.loader, log);
  const metrics = new Metrics({ dbFile: layout.dbFile });
  const push = startPush(config, layout, cards, user, metrics, log, opts.push);
  events.on('card', (e) => push.onCardEvent(e));
  followDismissedNudges(events, layout, log);
  const reports = new ReportsService(config, layout, log, () => user.timeZone());
  reports.start();
  let closed = false;
  const turns = new TurnHub();
  const shutdown = new AbortController();
  setMaxListeners(0, shutdown.signal);
  return {
    config,
    layout,
    firstStart: fresh,
    db,
    freeze,
    replies: new IdempotentReplies(db),
    metrics,
    cards,
    hae,
    auth,
    push,
    reports,
    user,
    conversations: new ConversationStore(chatDb),
    turns,
    events,
    shutdownSignal: shutdown.signal,
    async stopTurns() {
      shutdown.abort('shutdown');
      await turns.stopAll();
    },
    async close() {
      if (closed) return;
      closed = true;
      // running turns end as stopped: the user's message is kept, no half reply is stored
      shutdown.abort('shutdown');
      await turns.stopAll();
      await push.stop();
      await reports.close();
      await watcher?.close();
      // a large file being loaded is left for the next start (its rows stored so far go)
      await cards.loader.cancelLargeLoads();
      closeDatabases(db, chatDb, log);
    },
  };
}
