/**
 * Check-offs of scheduled doses for checklist-card and schedule-card: records or undoes a dose of
 * an item on the shown day through the rows API (web/lib/entries.ts), one write at a time, and
 * says beforehand whether the card takes check-offs for that day (`writeable.fromWebapp` and the
 * date allowance, src/common/date-allowance.ts), so the ticks can be disabled with the reason.
 */
import { useMemo, useState } from 'preact/hooks';
import { dateRefusal } from '../../src/common/date-allowance.js';
import { dosesPath, type ScheduleItemRef } from '../../src/common/schedule.js';
import { writePolicyOf } from '../../src/common/write-policy.js';
import { ApiError } from '../lib/api.js';
import { today } from '../lib/dates.js';
import { checkOff, saveAttempts, undoCheckOff } from '../lib/entries.js';
import { useInFlight } from '../lib/in-flight.js';

export interface DoseWriter {
  /** False for a read-only card (no ticks at all). */
  canWrite: boolean;
  /** Why the shown day takes no check-offs ("This card doesn't take entries for past days."), or null. */
  refusal: string | null;
  /** The key (`list:index`) of the item being written, or null. */
  busy: string | null;
  /** The last write's failure, as a sentence, or null. */
  problem: string | null;
  tick(
    ref: ScheduleItemRef,
    opts?: { offSchedule?: boolean; fields?: Record<string, unknown> },
  ): Promise<boolean>;
  untick(ref: ScheduleItemRef): Promise<void>;
}

/** The key of an item for `busy`. */
export const itemKey = (ref: ScheduleItemRef) => `${ref.list}:${ref.index}`;

function messageOf(err: unknown): string {
  if (err instanceof ApiError && err.status === 412)
    return 'The schedule changed meanwhile; it has been reloaded, try again.';
  return err instanceof Error ? err.message : 'Saving failed. Try again.';
}

/** Check-off actions for card `id` showing `date`, given the card's `meta`, data and data ETag. */
export function useDoseWriter(
  id: string,
  meta: Record<string, unknown>,
  data: unknown,
  etag: string | null,
  date: string,
): DoseWriter {
  // set at the click, not at the next render: a double tap records one dose
  const inFlight = useInFlight<string>();
  const busy = inFlight.busy;
  const [problem, setProblem] = useState<string | null>(null);
  // a tick tried again after an error is the same write (same key and time): stored once
  const attempts = useMemo(saveAttempts, []);
  const policy = writePolicyOf(meta);
  const canWrite = policy.fromWebapp;
  const refusal = canWrite ? dateRefusal(policy, date, today()) : null;

  async function run(ref: ScheduleItemRef, action: (path: string) => Promise<unknown>): Promise<boolean> {
    let ok = false;
    await inFlight.run(itemKey(ref), async () => {
      setProblem(null);
      try {
        await action(dosesPath(data, ref));
        ok = true;
      } catch (err) {
        setProblem(messageOf(err));
      }
    });
    return ok;
  }

  return {
    canWrite,
    refusal,
    busy,
    problem,
    // by name the append needs no If-Match (a concurrent tick elsewhere must not refuse this one);
    // by position it does
    tick: (ref, opts = {}) =>
      run(ref, async (path) => {
        const attempt = attempts.of([path, date, opts, etag]);
        await checkOff(id, path, date, { ...opts, etag: path.includes('[index=') ? etag : null, attempt });
        attempts.done();
      }),
    untick: async (ref) => {
      attempts.done();
      await run(ref, (path) => undoCheckOff(id, path, ref, date, etag));
    },
  };
}
