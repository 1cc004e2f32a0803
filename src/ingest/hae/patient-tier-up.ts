/**
 * Running one long burst of JavaScript with V8's optimising compiler held back.
 *
 * V8 counts the bytecode a function runs and, every "interrupt budget" of it, considers
 * compiling the function with TurboFan. A Health Auto Export push runs the extraction and card
 * code over thousands of points once, mostly code the process has not run before: with the
 * default budget V8 starts optimising a dozen functions part way through, some of them twice
 * when a later block of another shape invalidates the first compile, and on a small server that
 * compiling costs about as much CPU as the rest of the push (bench/hae-ingest.ts: the first push
 * of a 1.6 MB payload used some 40 % less CPU with it held back). With a budget fifteen times
 * larger the push runs mostly in V8's baseline code; its hottest functions still get optimised,
 * later. The budget is raised for the call only: raised for the whole process, the short
 * requests a running server answers (a card's data, an append) were optimised later and cost
 * more.
 */
import v8 from 'node:v8';

/** V8's own interrupt budget in the Node versions this runs on (`node --v8-options`), bytes of bytecode. */
const V8_DEFAULT_BUDGET = 67_584;

/** How many times the usual budget a patient call runs with. */
const PATIENCE = 15;

/** The budget the process started with: the last `--interrupt-budget` given to node, else V8's. */
function startBudget(): number {
  const words = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  let budget = V8_DEFAULT_BUDGET;
  for (const w of words) {
    const m = /^--interrupt[-_]budget=(\d+)$/.exec(w);
    if (m) budget = Number(m[1]);
  }
  return budget;
}

let usual: number | undefined;
let depth = 0;

/**
 * Runs `fn` (synchronous) with V8's interrupt budget raised PATIENCE times, then puts the usual
 * budget back, also when `fn` throws. Nested calls keep the raised budget until the outermost ends.
 */
export function withPatientTierUp<T>(fn: () => T): T {
  usual ??= startBudget();
  if (depth++ === 0) v8.setFlagsFromString(`--interrupt-budget=${usual * PATIENCE}`);
  try {
    return fn();
  } finally {
    if (--depth === 0) v8.setFlagsFromString(`--interrupt-budget=${usual}`);
  }
}
