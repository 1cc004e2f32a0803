/**
 * No reply leaves before the writes it may report are on disk. Row writes commit without waiting
 * for the disk (group commit, src/store/wal-sync.ts); this onSend hook holds every reply while
 * changed rows still wait for their flush, so a 201 is only sent once its row survives a power
 * cut, and many clients writing at once share one flush instead of queueing behind one each.
 * A reply written while nothing is pending costs one comparison of two counters.
 *
 * A failed flush answers 503 NOT_SAVED to every request waiting on it (the disk reported an
 * error: the change may or may not have been kept).
 */
import type { FastifyInstance } from 'fastify';
import { unavailable } from '../errors.js';
import type { WalSync } from '../store/wal-sync.js';

const failedOnce = Symbol('durable-reply-failed');

/** Installs the hook for the connection flushed by `walSync` (none: nothing to wait for). */
export function durableReplies(app: FastifyInstance, walSync: WalSync | undefined): void {
  if (!walSync) return;
  // a callback hook: a reply with nothing pending (every read) goes on without a promise
  app.addHook('onSend', (req, _reply, payload, done) => {
    const r = req as unknown as Record<symbol, boolean>;
    // the error reply of a failed flush goes out as it is
    if (r[failedOnce] || !walSync.pending()) return done(null, payload);
    walSync.durable().then(
      () => done(null, payload),
      (err: unknown) => {
        r[failedOnce] = true;
        req.log.error({ err }, 'flushing the database to disk failed');
        done(
          unavailable(
            `the disk reported an error while saving (${(err as { code?: string }).code ?? 'I/O error'}): the change may not have been kept`,
            'NOT_SAVED',
          ),
        );
      },
    );
  });
}
