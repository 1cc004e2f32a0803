/**
 * `POST /api/health-auto-export`, the Health Auto Export webhook.
 *
 * Public to the global auth gate (`config.auth: 'public'`): the route does its own auth with the
 * HAE token (`Authorization: Bearer <token>`, constant-time): 501 `{error: "ingest disabled"}`
 * with no token set, 401 for a wrong one (counted toward KLEBB_AUTH_FAILURE_LIMIT per address,
 * then 429). The body is read by receiveBody as raw bytes in a scope
 * without the JSON parser: 413 once more than KLEBB_HAE_MAX_BYTES has arrived, answered while the
 * rest is drained. Then 200 `{ok, ingested, availableUnsubscribed}`; a body that does not parse is
 * quarantined and answered 200 `{ok: false, warning}`; any error after auth is logged and
 * answered 200 with a warning (the phone must not retry-spiral), except a full disk (507) or a
 * database locked by another program (503): nothing was stored and a later retry will work.
 */

import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { KlebbError, payloadTooLarge, unauthorized } from '../../../errors.js';
import { storageFault } from '../../../store/storage-faults.js';
import { withGrowingYoungGeneration } from '../../../young-generation.js';
import { bodyStream, rawBodyScope } from '../../raw-body.js';
import { spoolName } from '../../spool-files.js';
import { HAE_INLINE_MAX_BYTES } from '../env.js';
import { timeGroupingOf } from '../format/time-grouping.js';
import type { HaeIngest } from '../service.js';
import { ingestInline, ingestSpooled } from './ingest-body.js';
import { bodyReadError, receiveBody } from './receive.js';
import { noteBodyBytes, withoutBodyQuote } from './refused-pushes.js';

/** The webhook path. */
export const HAE_WEBHOOK_PATH = '/api/health-auto-export';

/** Registers the webhook on `app` (in its own raw-body scope). */
export function haeWebhookRoute(app: FastifyInstance, svc: HaeIngest): void {
  rawBodyScope(app, (scope) => {
    // every refused push, whatever refused it, is recorded for the status route (refused-pushes.ts)
    scope.addHook('onSend', svc.refused.onSend);
    scope.post(HAE_WEBHOOK_PATH, { config: { auth: 'public' } }, async (req, reply) => {
      const stream = bodyStream(req.body) ?? Readable.from([]);
      const auth = svc.tokens.check(req.headers.authorization);
      if (auth !== 'ok') {
        // the body is drained, never left unread: the client gets the status, not a reset
        stream.on('error', () => {});
        stream.resume();
        if (auth === 'config-invalid') {
          req.log.warn({ file: svc.tokens.file, problem: svc.tokens.problem }, 'config.json cannot be read');
          throw new KlebbError(
            409,
            'CONFIG_INVALID',
            `the server's settings file HEALTH_HOME/config.json ${svc.tokens.problem}, so the token cannot be checked; nothing was stored. Fix it, or remove it and make a new token`,
          );
        }
        if (auth === 'no-token') {
          throw new KlebbError(501, 'INGEST_DISABLED', 'ingest disabled');
        }
        // a wrong token counts toward the refused-credentials limit per address, like a wrong
        // bearer at the gate (src/auth/gate.ts): past it, 429 with Retry-After
        await req.server.countRefusedCredential(req, reply);
        // what to fix, without saying anything about the token itself
        throw unauthorized(
          /^Bearer\s+\S/i.test(req.headers.authorization ?? '')
            ? 'wrong Health Auto Export token (regenerated since?): copy the current one from Settings › Health Auto Export in Klebb'
            : 'missing Health Auto Export token: add the header "Authorization: Bearer <token>" to the automation (Settings › Health Auto Export in Klebb shows the token)',
        );
      }
      const received = await receiveBody(stream, {
        maxBytes: svc.maxBytes,
        inlineMaxBytes: HAE_INLINE_MAX_BYTES,
        spoolPath: () => path.join(svc.dirs.incoming, spoolName('json')),
        contentLength: req.headers['content-length'],
        contentEncoding: req.headers['content-encoding'],
      });
      // payloadBytes of a refusal: null for a body never read (refused on its Content-Length,
      // or on a Content-Encoding that is unknown or does not decode), else the bytes read
      const unread =
        (received.kind === 'tooLarge' && received.declared !== undefined) ||
        (received.kind === 'failed' && received.error instanceof KlebbError);
      if (!unread) noteBodyBytes(req, received.bytes);
      if (received.kind === 'tooLarge') {
        req.log.warn(
          { bytes: received.bytes, declared: received.declared, limit: svc.maxBytes },
          'HAE body too large',
        );
        throw payloadTooLarge(
          `the body is larger than ${svc.maxBytes} bytes (KLEBB_HAE_MAX_BYTES); ` +
            `${received.declared !== undefined ? `Content-Length says ${received.declared}` : `${received.bytes} bytes had arrived`}. ` +
            'Send a shorter period per request (batch requests in the automation)',
        );
      }
      if (received.kind === 'failed') {
        // a spool file that did not fit on the disk is 507 (the phone sends it again later), a
        // body that does not decode 400 naming the encoding, a body broken off BODY_READ_FAILED
        const answer = bodyReadError(received.error);
        if (answer.code === 'BODY_READ_FAILED')
          req.log.warn({ bytes: received.bytes, err: received.error.message }, 'HAE body could not be read');
        throw answer;
      }
      try {
        // samples of an earlier failed push or import still waiting for their cards go first
        svc.settleFailed();
        // what the automation's time grouping says of the points (Hours: parts of a day; Weeks:
        // no day's value), from the header the app adds to every request
        const grouping = timeGroupingOf(req.headers['automation-aggregation']);
        // the young generation may grow while the body is read and stored (young-generation.ts)
        const result =
          received.kind === 'inline'
            ? withGrowingYoungGeneration(() =>
                ingestInline(svc, received, { contentType: req.headers['content-type'], grouping }),
              )
            : await withGrowingYoungGeneration(() =>
                ingestSpooled(svc, received.file, received.bytes, {
                  contentType: req.headers['content-type'],
                  grouping,
                }),
              );
        // a push answered {ok: false} says why in the log too (its warning, without the parser's
        // quote of the body: the log is no place for health data); points skipped are counted,
        // their text (which can quote a value) is in the answer and the push status
        req.log.info(
          {
            bytes: received.bytes,
            ok: result.ok,
            samples: result.samples,
            ingested: result.ingested,
            ...(result.warning ? { warning: withoutBodyQuote(result.warning) } : {}),
            ...(result.warnings?.length ? { warnings: result.warnings.length } : {}),
          },
          'HAE push',
        );
        return result;
      } catch (err) {
        // a full disk or a locked database stored nothing: 507 / 503, so the phone sends it again
        if (storageFault(err)) throw err;
        req.log.error({ err }, 'HAE push failed after auth; answered 200 with a warning');
        // a stack overflow is the body's shape (too deep), not ours to show (V8's message)
        const deep = err instanceof RangeError && /call stack/i.test(err.message);
        return {
          ok: false,
          ingested: {},
          availableUnsubscribed: [],
          warning: deep
            ? 'the body nests too deeply to be read; samples stored before the failure are kept'
            : `ingestion failed: ${(err as Error).message}; samples stored before the failure are kept`,
        };
      }
    });
  });
}
