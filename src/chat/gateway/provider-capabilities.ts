/**
 * What each provider accepts: a small built-in table, overrides from the
 * caller's config, and what was learned from a provider's own 400s at run time ("remember the
 * result for that provider": string system content per provider, cache_control per provider and model).
 */
import type { ProviderCapabilities } from './types.js';

/** Defaults for a gateway the table does not know: no cache_control, parts and stream_options allowed. */
export const DEFAULT_CAPABILITIES: ProviderCapabilities = {
  systemContentString: false,
  cacheControl: false,
  streamOptions: true,
};

interface TableRow {
  /** Matches the endpoint's host name. */
  host: RegExp;
  /** Matches the model name; omitted = every model. */
  model?: RegExp;
  caps: Partial<ProviderCapabilities>;
}

/**
 * Known providers. Groq wants string system content. cache_control is attached only
 * where a provider and model are known to take it: OpenRouter's Anthropic routes
 * (except Claude 3 Haiku/Opus/Sonnet, which refused it with tools) and Gemini routes.
 */
const TABLE: TableRow[] = [
  { host: /(^|\.)groq\.com$/i, caps: { systemContentString: true, cacheControl: false } },
  {
    host: /(^|\.)openrouter\.ai$/i,
    model: /^anthropic\/claude-(?!3-(haiku|opus|sonnet)\b)/i,
    caps: { cacheControl: true },
  },
  { host: /(^|\.)openrouter\.ai$/i, model: /^google\/gemini/i, caps: { cacheControl: true } },
];

/** Looks `hostname` and `model` up in the built-in table (later rows win on conflicts). */
export function knownCapabilities(hostname: string, model: string): Partial<ProviderCapabilities> {
  const out: Partial<ProviderCapabilities> = {};
  for (const row of TABLE) {
    if (row.host.test(hostname) && (!row.model || row.model.test(model))) Object.assign(out, row.caps);
  }
  return out;
}

/**
 * Capabilities learned from a provider's refusals during this process's life. Keys: the
 * endpoint origin for provider-wide facts, origin + model for cache_control.
 */
export class ProviderMemory {
  private readonly byProvider = new Map<string, Partial<ProviderCapabilities>>();
  private readonly byModel = new Map<string, Partial<ProviderCapabilities>>();

  /** Records that the provider at `origin` needs string system content / rejects stream_options. */
  learnProvider(
    origin: string,
    caps: Partial<Pick<ProviderCapabilities, 'systemContentString' | 'streamOptions'>>,
  ): void {
    this.byProvider.set(origin, { ...this.byProvider.get(origin), ...caps });
  }

  /** Records that `model` at `origin` rejects (or takes) cache_control. */
  learnModel(origin: string, model: string, caps: Partial<Pick<ProviderCapabilities, 'cacheControl'>>): void {
    const key = `${origin} ${model}`;
    this.byModel.set(key, { ...this.byModel.get(key), ...caps });
  }

  /** What was learned for this origin and model (possibly nothing). */
  learned(origin: string, model: string): Partial<ProviderCapabilities> {
    return { ...this.byProvider.get(origin), ...this.byModel.get(`${origin} ${model}`) };
  }
}

/** The process-wide memory used when the caller passes none. */
export const defaultProviderMemory = new ProviderMemory();

/**
 * The capabilities to use for one call: defaults, then the table, then the caller's
 * `overrides` (an operator who knows the gateway), then what the provider itself taught us.
 */
export function resolveCapabilities(
  url: URL,
  model: string,
  overrides: Partial<ProviderCapabilities> | undefined,
  memory: ProviderMemory,
): ProviderCapabilities {
  return {
    ...DEFAULT_CAPABILITIES,
    ...knownCapabilities(url.hostname, model),
    ...defined(overrides),
    ...defined(memory.learned(url.origin, model)),
  };
}

function defined(caps: Partial<ProviderCapabilities> | undefined): Partial<ProviderCapabilities> {
  return Object.fromEntries(Object.entries(caps ?? {}).filter(([, v]) => v !== undefined));
}
