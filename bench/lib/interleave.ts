/**
 * Runs several timed operations in interleaved blocks instead of one after the other: round r
 * gives every participant `block` consecutive operations, starting with participant r mod n.
 * On a shared machine whose load and disk latency drift during the run, the drift then falls on
 * every participant alike, so their ratios stay meaningful. Only one operation runs at a time.
 */
import { performance } from 'node:perf_hooks';
import { type Summary, summarize } from './stats.js';

export interface Participant {
  name: string;
  /** One operation; resolves to the latency to record, ms. */
  op(): Promise<number> | number;
}

export interface ParticipantResult {
  latency: Summary;
  /** Measured operations / wall time spent in this participant's measured blocks. */
  perSecond: number;
}

/**
 * `warmup` unmeasured operations per participant (interleaved the same way), then `count`
 * measured ones each, in blocks of `block`.
 */
export async function interleave(
  participants: Participant[],
  opts: { warmup: number; count: number; block: number; onRound?: (done: number, total: number) => void },
): Promise<Map<string, ParticipantResult>> {
  const n = participants.length;
  const runPhase = async (perParticipant: number, record: boolean) => {
    const samples = participants.map(() => [] as number[]);
    const wall = participants.map(() => 0);
    const rounds = Math.ceil(perParticipant / opts.block);
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < n; k++) {
        const idx = (r + k) % n;
        const p = participants[idx];
        const todo = Math.min(opts.block, perParticipant - r * opts.block);
        const t0 = performance.now();
        for (let j = 0; j < todo; j++) samples[idx].push(await p.op());
        wall[idx] += performance.now() - t0;
      }
      if (record) opts.onRound?.(Math.min((r + 1) * opts.block, perParticipant), perParticipant);
    }
    return { samples, wall };
  };
  await runPhase(opts.warmup, false);
  const { samples, wall } = await runPhase(opts.count, true);
  const out = new Map<string, ParticipantResult>();
  participants.forEach((p, i) => {
    out.set(p.name, { latency: summarize(samples[i]), perSecond: samples[i].length / (wall[i] / 1000) });
  });
  return out;
}
