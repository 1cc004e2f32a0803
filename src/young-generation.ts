/**
 * The size of V8's young generation: small while the server idles, free to grow while a large
 * ingestion runs.
 *
 * main.ts keeps the young generation at its initial size (1 MB semi-spaces) so an idle instance
 * does not keep 30 MB of young pages resident. A push of thousands of samples allocates tens of
 * MB that live for the whole push (the parsed body, the samples): with 1 MB semi-spaces every
 * MB allocated costs a scavenge, and each one copies the survivors again and scans the roots.
 * Measured on the 21.8 MB minute-level push (bench/hae-ingest.ts): 3 100 scavenges, more than
 * half of the push's CPU time. While an ingestion runs the young generation may grow as V8
 * grows it by default (doubling, up to its maximum); the usual factor is put back when the last
 * ingestion ends, and V8 gives the grown space back when the server is quiet again (the
 * collection of src/http/memory-release.ts included), so the idle footprint is unchanged.
 */
import v8 from 'node:v8';

/** The factor main.ts sets: the young generation stays at its initial size. */
const IDLE_GROWTH_FACTOR = 1;

/** V8's own default: the young generation doubles when much of it survives a scavenge. */
const BUSY_GROWTH_FACTOR = 2;

/** Whether keepYoungGenerationSmall ran in this process (the server; not the tests or scripts). */
let kept = false;
let running = 0;

/**
 * Keeps the young generation at its initial size from now on (main.ts, before any module of the
 * server is loaded: the flag must be set before the heap grows).
 */
export function keepYoungGenerationSmall(): void {
  v8.setFlagsFromString(`--semi-space-growth-factor=${IDLE_GROWTH_FACTOR}`);
  kept = true;
}

function ended(): void {
  if (--running === 0) v8.setFlagsFromString(`--semi-space-growth-factor=${IDLE_GROWTH_FACTOR}`);
}

/**
 * Runs `fn` with the young generation free to grow, until `fn` returns or, for a promise, settles
 * (also on a throw or a rejection). Overlapping calls keep it free until the last one ends. In a
 * process that never called keepYoungGenerationSmall, `fn` just runs.
 */
export function withGrowingYoungGeneration<T>(fn: () => T): T {
  if (!kept) return fn();
  if (running++ === 0) v8.setFlagsFromString(`--semi-space-growth-factor=${BUSY_GROWTH_FACTOR}`);
  let result: T;
  try {
    result = fn();
  } catch (err) {
    ended();
    throw err;
  }
  if (result instanceof Promise) return result.finally(ended) as T;
  ended();
  return result;
}
