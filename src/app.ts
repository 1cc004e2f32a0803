/**
 * buildApp(instance): the Fastify instance with every route module registered, the auth gate,
 * the error handler and the JSON body rules (no type coercion: bad input is a 4xx, never
 * silently converted).
 */

import Fastify, { type FastifyInstance } from 'fastify';
import { accountRoutes } from './auth/account-routes.js';
import { adminAuthRoutes } from './auth/admin-routes.js';
import { authRoutes } from './auth/auth-routes.js';
import { installGate } from './auth/gate.js';
import { requestLogFields } from './auth/log-redaction.js';
import type { Principal } from './auth/principal.js';
import { changeRoutes } from './cards/change-routes.js';
import { entryRoutes } from './cards/entry-routes.js';
import { cardRoutes } from './cards/routes.js';
import { ChatService } from './chat/chat-service.js';
import { conversationRoutes } from './chat/conversations/routes.js';
import { chatRoutes } from './chat/routes.js';
import { jsonShapeProblem } from './common/json-guard.js';
import { decodeUtf8Strict, jsonNumberProblem } from './common/json-text.js';
import type { Config } from './config.js';
import { appVersion } from './data/export-service.js';
import { dataRoutes } from './data/routes.js';
import { badRequest, type ErrorCode } from './errors.js';
import { feedbackRoutes } from './feedback/routes.js';
import { galleryRoutes } from './gallery/routes.js';
import { absentBodyIsEmptyObject } from './http/absent-body.js';
import { installBodyDecoding } from './http/body-encoding.js';
import { changeSetPerRequest } from './http/change-set-scope.js';
import { clientErrorHandler, HTTP_SERVER_OPTIONS } from './http/client-errors.js';
import { durableReplies } from './http/durable-replies.js';
import { errorHandler } from './http/error-handler.js';
import { eventRoutes } from './http/event-routes.js';
import { logStream } from './http/log-stream.js';
import { releaseMemoryAfterLargeRequests } from './http/memory-release.js';
import { metricsRoutes } from './http/metrics-routes.js';
import { noRoute } from './http/no-route.js';
import { installOpenApi, type OpenApiDocument, openApiRoute } from './http/openapi.js';
import { keepRefusedBody } from './http/refused-body.js';
import { installRequestContext, requestLog } from './http/request-context.js';
import { OneLinePerRequest } from './http/request-log.js';
import { systemRoutes } from './http/system-routes.js';
import { buildValidator } from './http/validation.js';
import { webRoutes } from './http/web-routes.js';
import { ingestRoutes } from './ingest/routes.js';
import { insightRoutes } from './insights/routes.js';
import type { Instance } from './instance.js';
import { MAX_PATH_PART_CHARS } from './limits.js';
import { mcpRoutes } from './mcp/routes.js';
import { pushRoutes } from './push/routes.js';
import { reportRoutes } from './reports/routes.js';
import { walSyncOf } from './store/database.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth gate for every request that is not public. */
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /**
     * Who may call the route: 'public' (anyone, e.g. /healthz), 'admin' (KLEBB_ADMIN_TOKEN
     * bearer), or absent: an authenticated principal. Absent is the default, so a route
     * nobody marked is closed, never open.
     */
    auth?: 'public' | 'admin';
    /** The route enforces a read-only token's limits itself (the gate lets its writes through). */
    readOnlyChecked?: boolean;
    /** The route reads its body as a raw stream (src/ingest/raw-body.ts) and decodes it itself. */
    rawBody?: boolean;
  }
  interface FastifyInstance {
    /** Every registered route with its auth mode (for the route-table test and docs). */
    routeTable: { method: string; url: string; auth: 'public' | 'admin' | 'session' }[];
  }
}

/**
 * How long `app.close()` (SIGTERM, a test's teardown) lets requests still running finish before
 * their connections are cut, in ms. Our own long streams (live events, chat turns) end on their
 * own at close; this bounds anything else (a client that never reads its answer), so a shutdown
 * can never hang.
 */
export const CLOSE_GRACE_MS = 5_000;

/**
 * Makes `app.close()` end within `graceMs`: idle keep-alive connections close at once (Fastify's
 * default), busy ones get `graceMs` to finish, then every connection left is destroyed.
 */
function closeWithDeadline(app: FastifyInstance, graceMs: number): void {
  let timer: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    timer = setTimeout(() => app.server.closeAllConnections(), graceMs);
    timer.unref();
  });
  app.addHook('onClose', async () => clearTimeout(timer));
}

/**
 * A clearer refusal than the JSON parser's own "Body is not valid JSON" for a body that parses but
 * holds a `__proto__` key (or `constructor.prototype`), which Fastify refuses as prototype
 * poisoning: 400 INVALID_JSON naming the key. Null when `text` does not parse (a real syntax error).
 */
function poisonedBody(text: string) {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const problem = jsonShapeProblem(value, { prefix: 'body', refusePrototypeKeys: true });
  if (!problem?.prototypeKey) return null;
  const key = problem.path.slice(problem.path.lastIndexOf('.') + 1);
  return badRequest(
    `the JSON body has a "${key}" key at ${problem.path}, which is refused (it names an object prototype)`,
    [{ path: problem.path, message: problem.message }],
    'INVALID_JSON',
  );
}

/** 400 naming the place in the body where `problem` was found. */
function soundJsonRefusal(problem: { path: string; message: string }, code: ErrorCode) {
  return badRequest(`${problem.path} ${problem.message}`, [problem], code);
}

/**
 * The bare Fastify instance of the server, its logger included (pino, written to standard
 * output): made before the home is opened, so the instance's own log lines (start-up, ingest,
 * push) go through the same logger, with time and level, and with the request id of the request
 * they belong to (src/http/request-context.ts).
 */
export function newHttpApp(
  config: Pick<Config, 'logLevel' | 'bodyLimitBytes' | 'trustedProxies'>,
): FastifyInstance {
  return Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: { req: requestLogFields },
      // written from this thread, not through the thread pool (src/http/log-stream.ts)
      stream: logStream(),
    },
    // one info line per request, with method, URL, status and time (src/http/request-log.ts)
    logController: new OneLinePerRequest(),
    bodyLimit: config.bodyLimitBytes,
    // a longer path part is 414 on every route (src/http/path-parts.ts)
    routerOptions: { maxParamLength: MAX_PATH_PART_CHARS },
    // no type is coerced: bodies are checked as sent, URL numbers read strictly (src/http/validation.ts)
    schemaController: { compilersFactory: { buildValidator } },
    // forwarding headers count only from the proxies named in KLEBB_TRUSTED_PROXIES, and only for
    // the client address in logs and rate limits (src/auth/principal.ts never reads them as trust)
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    // refusals of the HTTP parser in the JSON error shape too (src/http/client-errors.ts)
    http: HTTP_SERVER_OPTIONS,
    clientErrorHandler,
    // the router's own refusals (a %-escape that does not decode, a path part too long) in our shape
    frameworkErrors: errorHandler,
  });
}

/**
 * Builds the HTTP app for an open instance (not yet listening), on `app` when given (newHttpApp
 * of the same config, whose logger the instance already writes to), else on a new one.
 */
export function buildApp(inst: Instance, app: FastifyInstance = newHttpApp(inst.config)): FastifyInstance {
  app.decorateRequest('principal', null);
  closeWithDeadline(app, CLOSE_GRACE_MS);
  const routeTable: FastifyInstance['routeTable'] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) {
      if (method === 'HEAD') continue;
      routeTable.push({ method, url: r.url, auth: r.config?.auth ?? 'session' });
    }
  });
  changeSetPerRequest(app);
  // replies wait for the group commit of the writes before them (src/store/wal-sync.ts)
  durableReplies(app, walSyncOf(inst.db));
  // memory taken by a large body (an import, a push) is given back once the server is quiet
  releaseMemoryAfterLargeRequests(app, [inst.db]);
  // gzip, deflate and br request bodies are decoded as they arrive, limits counting decoded bytes
  installBodyDecoding(app);
  // no body at all, on a route whose fields are all optional, is `{}` (src/http/absent-body.ts)
  absentBodyIsEmptyObject(app);
  // the API speaks JSON only: a text/plain body is 415, not a string handed to the routes
  app.removeContentTypeParser('text/plain');
  // JSON bodies (and RFC 7396 merge patches, which have their own media type): the default
  // parser (prototype poisoning refused), then a shape check: too deep or broken text is a 400
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    ['application/json', 'application/merge-patch+json'],
    { parseAs: 'buffer' },
    (req, raw, done) => {
      // bytes that are not UTF-8, and numbers JavaScript cannot keep as written, are refused
      // naming the field, never stored changed (src/common/json-text.ts)
      const decoded = decodeUtf8Strict(raw as Buffer, 'body');
      if (decoded.problem) return done(soundJsonRefusal(decoded.problem, 'INVALID_UTF8'), undefined);
      const body = decoded.text;
      parseJson(req, body, (err, value) => {
        if (err) return done(poisonedBody(body) ?? err, undefined);
        const numbers = jsonNumberProblem(body, 'body');
        const problem = numbers ? undefined : jsonShapeProblem(value, { prefix: 'body' });
        // kept for an answer that must repeat a sound part of it (a JSON-RPC request's id)
        if (numbers || problem) keepRefusedBody(req, value);
        if (numbers) return done(soundJsonRefusal(numbers, 'NUMBER_OUT_OF_RANGE'), undefined);
        if (problem) return done(soundJsonRefusal(problem, 'INVALID_JSON'), undefined);
        done(null, value);
      });
    },
  );
  // The gate (src/auth/gate.ts) decides by the matched route's own config, never by the raw URL
  // text: the router decodes `%61pi` to `api`, so a prefix test on req.url could be walked
  // around. Unmatched paths (404) are gated too, so a wrong bearer is 401 everywhere.
  installRequestContext(app);
  installGate(app, inst);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((req) => {
    throw noRoute(req);
  });
  // the OpenAPI document collects routes as they are declared: the plugin goes first, the routes
  // in a plugin after it (skip-override: on this instance, not a child, as if declared here)
  const openApi = installOpenApi(app, appVersion());
  const routes = async (root: FastifyInstance) => declareRoutes(root, inst, openApi);
  Object.assign(routes, { [Symbol.for('skip-override')]: true });
  app.register(routes);
  return app;
}

/** Declares every route on `app` (see buildApp). */
function declareRoutes(app: FastifyInstance, inst: Instance, openApi: OpenApiDocument): void {
  openApiRoute(app, openApi);
  systemRoutes(app, inst);
  metricsRoutes(app, inst);
  cardRoutes(app, inst);
  galleryRoutes(app, inst);
  insightRoutes(app, inst);
  entryRoutes(app, inst);
  changeRoutes(app, inst);
  mcpRoutes(app, inst);
  feedbackRoutes(app, inst);
  chatRoutes(
    app,
    new ChatService({
      config: inst.config,
      layout: inst.layout,
      cards: inst.cards,
      debug: (line) => requestLog(app.log).info(line),
      log: () => requestLog(app.log),
      onTurnEnd: (t) => {
        inst.metrics.observeTurn({ reason: t.reason, seconds: t.seconds, gatewayKind: `status_${t.status}` });
        requestLog(app.log).info(
          {
            turnId: t.turnId,
            reason: t.reason,
            durationMs: Math.round(t.seconds * 1000),
            roundTrips: t.roundTrips,
          },
          'chat turn ended',
        );
      },
      shutdownSignal: inst.shutdownSignal,
      timeZone: () => inst.user.timeZone(),
      reminderDelivery: (id) => inst.push.deliveryStatus(inst.push.find(id)),
    }),
    inst,
  );
  conversationRoutes(app, inst);
  ingestRoutes(app, inst);
  dataRoutes(app, inst);
  reportRoutes(app, inst);
  eventRoutes(app, inst);
  authRoutes(app, inst);
  accountRoutes(app, inst);
  adminAuthRoutes(app, inst);
  pushRoutes(app, inst);
  webRoutes(app, { signInPath: () => (inst.auth.hasPasskeys() ? '/login' : null) });
}
