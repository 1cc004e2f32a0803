/**
 * Repairing a refused request: when the gateway refuses something we sent (a field, a value, a
 * shape), the next attempt is built without it and the provider memory learns it. Each repair is
 * tried at most once per call, so a repair can never loop.
 */
import type { GatewayError } from './gateway-error.js';
import type { ProviderMemory } from './provider-capabilities.js';
import { bodyHasCacheControl, bodyHasSystemParts, type ChatCompletionBody } from './request.js';

/** The repairs already made during one call. */
export type RepairsMade = Set<string>;

/** Where a learnt repair is stored: the endpoint origin and the model. */
export interface RepairTarget {
  origin: string;
  model: string;
  memory: ProviderMemory;
}

/**
 * Tries to repair the refusal `err` of `body`. Returns true when a capability was learnt and the
 * request should be rebuilt and sent again; false when no repair applies (or it was tried).
 */
export function repairRefusal(
  err: GatewayError,
  body: ChatCompletionBody,
  made: RepairsMade,
  target: RepairTarget,
): boolean {
  const once = (key: string, applies: boolean, learn: () => void): boolean => {
    if (!applies || made.has(key)) return false;
    made.add(key);
    learn();
    return true;
  };
  switch (err.reason) {
    case 'system_content_must_be_string':
      return once('system', bodyHasSystemParts(body), () =>
        target.memory.learnProvider(target.origin, { systemContentString: true }),
      );
    case 'cache_control_rejected':
      return once('cache', bodyHasCacheControl(body), () =>
        target.memory.learnModel(target.origin, target.model, { cacheControl: false }),
      );
    case 'stream_options_rejected':
      return once('streamOptions', body.stream_options !== undefined, () =>
        target.memory.learnProvider(target.origin, { streamOptions: false }),
      );
    default:
      return false;
  }
}
