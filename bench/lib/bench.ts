/**
 * The contract between a benchmark file and the runner: each benchmark exports a `Benchmark`
 * whose run() returns its figures and notes; the runner times it, prints its table and gathers
 * every figure into the final JSON line. `BenchContext.shared` lets two benchmarks of one run
 * reuse an expensive fixture (the 200-card home) instead of seeding it twice.
 */
import type { BenchResult } from './report.js';

export interface BenchContext {
  /** `--quick`: small sizes, for checking that the benchmarks work; figures are not comparable. */
  quick: boolean;
  /** The value made by `create` under `key`, made once per run. */
  shared<T>(key: string, create: () => Promise<T>): Promise<T>;
}

export interface Benchmark {
  name: string;
  title: string;
  run(ctx: BenchContext): Promise<Pick<BenchResult, 'figures' | 'notes'>>;
}

/** A BenchContext whose shared fixtures live as long as the context. */
export function createContext(quick: boolean): BenchContext {
  const cache = new Map<string, Promise<unknown>>();
  return {
    quick,
    shared<T>(key: string, create: () => Promise<T>): Promise<T> {
      let p = cache.get(key) as Promise<T> | undefined;
      if (!p) {
        p = create();
        cache.set(key, p);
      }
      return p;
    },
  };
}
