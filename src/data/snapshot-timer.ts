/**
 * The automatic daily snapshot: checked BACKUP_FIRST_CHECK_MS after start-up and then every
 * BACKUP_CHECK_INTERVAL_MS; when none was taken in the last 24 hours it takes one and prunes by
 * the retention (KLEBB_BACKUP_DAILY, KLEBB_BACKUP_WEEKLY). `daily: 0` switches it off. A failure
 * (disk full) is logged and tried again at the next check; it never stops the server.
 */
import { BACKUP_CHECK_INTERVAL_MS } from '../limits.js';
import { dailyDue, pruneSnapshots, type Retention, type SnapshotSource, takeSnapshot } from './backups.js';

/** First check after start-up, ms (not at once: a restart loop must not fill the disk, and tests end first). */
export const BACKUP_FIRST_CHECK_MS = 5 * 60 * 1000;

/** Runs the daily snapshot of one home. */
export class SnapshotTimer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;

  constructor(
    private readonly src: SnapshotSource,
    private readonly keep: Retention,
    private readonly log: (msg: string, o: object) => void,
    /** The person's time zone, whose days retention counts (undefined: the server's). */
    private readonly timeZone: () => string | undefined = () => undefined,
  ) {}

  /** Schedules the checks (no-op when daily snapshots are off). */
  start(): void {
    if (this.keep.daily <= 0) return;
    const tick = (next: number) => {
      this.timer = setTimeout(() => {
        this.running = this.check().finally(() => {
          this.running = null;
        });
        tick(BACKUP_CHECK_INTERVAL_MS);
      }, next);
      this.timer.unref();
    };
    tick(BACKUP_FIRST_CHECK_MS);
  }

  /** Takes the daily snapshot when due and prunes. */
  async check(now = new Date()): Promise<void> {
    if (!dailyDue(this.src.home, now)) return;
    try {
      const s = await takeSnapshot(this.src, 'daily', now);
      const { removed, notRemoved } = pruneSnapshots(this.src.home, this.keep, this.timeZone());
      this.log('daily snapshot taken', { snapshot: s.name, bytes: s.bytes, pruned: removed });
      for (const n of notRemoved)
        this.log('old snapshot not removed', { snapshot: n.name, reason: n.reason });
    } catch (err) {
      this.log('daily snapshot failed', { err: (err as Error).message });
    }
  }

  /** Stops the checks and waits for one in flight. */
  async stop(): Promise<void> {
    clearTimeout(this.timer);
    await this.running;
  }
}
