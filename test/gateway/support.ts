/**
 * Small shared pieces of the gateway tests: a hook recorder, a config for the scripted gateway,
 * offered tools and the calls a result holds, and a way to get the GatewayError a call rejects with.
 */
import { expect } from 'vitest';
import type { GatewayConfig } from '../../src/chat/gateway/client.js';
import { GatewayError } from '../../src/chat/gateway/gateway-error.js';
import { ProviderMemory } from '../../src/chat/gateway/provider-capabilities.js';
import type {
  ChatMessage,
  GatewayHooks,
  GatewayResult,
  ToolDefinition,
} from '../../src/chat/gateway/types.js';

/** Everything the hooks heard, in order, with timestamps for activity. */
export interface Recorded {
  hooks: GatewayHooks;
  tokens: string[];
  reasoning: string[];
  keepAlives: string[];
  activityAtMs: number[];
  retries: Array<{ attempt: number; waitMs: number; error: Error }>;
  warnings: string[];
}

/** Hooks that record every call. */
export function recordHooks(): Recorded {
  const r: Recorded = {
    tokens: [],
    reasoning: [],
    keepAlives: [],
    activityAtMs: [],
    retries: [],
    warnings: [],
    hooks: {},
  };
  r.hooks = {
    onToken: (t) => r.tokens.push(t),
    onReasoning: (t) => r.reasoning.push(t),
    onKeepAlive: (c) => r.keepAlives.push(c),
    onActivity: () => r.activityAtMs.push(Date.now()),
    onRetry: (info) => r.retries.push(info),
    onWarning: (w) => r.warnings.push(w),
  };
  return r;
}

/** A config for the scripted gateway: no retries and a fresh provider memory unless overridden. */
export function configFor(url: string, extra: Partial<GatewayConfig> = {}): GatewayConfig {
  return {
    url,
    apiKey: 'sk-test',
    model: 'test-model',
    maxRetries: 0,
    memory: new ProviderMemory(),
    ...extra,
  };
}

/** Tool definitions offering the tools `names`, each taking any object. */
export function offeredTools(...names: string[]): ToolDefinition[] {
  return names.map((name) => ({ type: 'function', function: { name, parameters: { type: 'object' } } }));
}

/** The calls a result holds as [name, parsed arguments] pairs, the form the tests compare. */
export function callsOf(r: GatewayResult): [string, unknown][] {
  return r.toolCalls.map((c) => [c.name, c.parsedArguments]);
}

/** A one-message transcript. */
export function userSays(text: string): ChatMessage[] {
  return [{ role: 'user', content: text }];
}

/** Awaits a call that must fail with a GatewayError and returns that error. */
export async function gatewayFailure(call: Promise<unknown>): Promise<GatewayError> {
  const outcome = await call.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  if (outcome.ok) throw new Error(`expected a GatewayError, got a result: ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(GatewayError);
  return outcome.error as GatewayError;
}
