/**
 * Telling a model's context window from a reply's token counts. Servers that run a model locally
 * (Ollama, llama.cpp, LM Studio, vLLM) load it with a context of a set length, set in round steps
 * (4096, 8192, 32768; 6000), and what fills or overflows it shows in the counts: a prompt cut to
 * the window, or input and output together at the window's length when the answer stopped.
 */
import type { GatewayUsage } from './types.js';

/** Context lengths are set in steps of these (4096, 6144; 6000, 10000). */
const WINDOW_STEPS = [256, 1000];

/** True when `n` is a multiple of one of the usual context-length steps. */
function windowLength(n: number): boolean {
  return n > 0 && WINDOW_STEPS.some((step) => n % step === 0);
}

/**
 * The smallest context a model that runs this assistant is loaded with (Ollama's smallest default).
 * A prompt count at the edge of a smaller window (130: half of 256 plus two) is no cut: Ollama
 * releases that counted only the tokens their cache did not hold report a few hundred on each
 * round-trip after a turn's first, and such counts often sit on a tiny window's edge.
 */
const MIN_WINDOW = 2048;

/**
 * True when a prompt count is at the edge of a context window of MIN_WINDOW or more: the window
 * itself or one less, or half of it plus two or three (the half a server keeps for the answer, its
 * start token and a shift).
 */
export function atWindowEdge(read: number): boolean {
  return [read, read + 1, 2 * (read - 2), 2 * (read - 3)].some((n) => n >= MIN_WINDOW && windowLength(n));
}

/** True when `n` tokens are a window's length or up to two short of it (a server stops a token early). */
function nearWindowLength(n: number): boolean {
  return [n, n + 1, n + 2].some(windowLength);
}

/** Finish reasons that say input and output together filled the context (Anthropic, Bedrock, Mistral, Cohere). */
const CONTEXT_FINISH = new Set(['model_context_window_exceeded', 'model_length', 'error_limit']);

/** A context_full error's `detail` when the provider said it (providerSaidContextFull). */
export const HOSTED_CONTEXT = "the provider said the model's own context filled";

/**
 * True when the provider itself said the context filled (Anthropic, Bedrock, Mistral, Cohere):
 * a hosted model whose context is the model's own, not one a person sets where it runs.
 */
export function providerSaidContextFull(rawFinish: string | null): boolean {
  return rawFinish !== null && CONTEXT_FINISH.has(rawFinish.trim().toLowerCase());
}

/**
 * For a reply that stopped at its length limit: the tokens the model's context held when it
 * stopped because the context was full (0 when the provider said so without counts), or
 * undefined when it stopped at an output limit or cannot be told. Klebb sets no output limit, so
 * a local server's length stop is often the context filling up; then "keep going" only stops at
 * the same place. Told apart by the counts: input and output together at a window's length, while
 * the output alone is not at one (an output limit is a round number of its own).
 */
export function contextFilled(rawFinish: string | null, usage: GatewayUsage | null): number | undefined {
  const total = usage ? usage.promptTokens + usage.completionTokens : undefined;
  if (providerSaidContextFull(rawFinish)) return total ?? 0;
  if (!usage || total === undefined || usage.promptTokens <= 0 || usage.completionTokens <= 0)
    return undefined;
  if (nearWindowLength(usage.completionTokens)) return undefined;
  return nearWindowLength(total) ? total : undefined;
}
