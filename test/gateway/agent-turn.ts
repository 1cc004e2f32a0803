/**
 * One turn of the real agent loop (runTurn) against the scripted gateway, with stand-in tools that
 * record what they were called with and answer {"ok":true}: for tests that check a provider's
 * quirk all the way to the tool that runs and the next request that goes out.
 */
import { runTurn } from '../../src/chat/agent/run-turn.js';
import type { TurnEvent, TurnResult } from '../../src/chat/agent/turn-events.js';
import type { GatewayConfig } from '../../src/chat/gateway/client.js';
import { ProviderMemory } from '../../src/chat/gateway/provider-memory.js';
import type { ChatMessage, ToolDefinition } from '../../src/chat/gateway/types.js';
import type { ArgumentsError } from '../../src/chat/tools/registry.js';
import type { ScriptedGateway } from '../helpers/scripted-gateway.js';
import { functionTools } from './wire.js';

/** A tool call as the stand-in tools received it. */
export interface Dispatched {
  name: string;
  args: unknown;
  argumentsError?: ArgumentsError;
}

/** What one turn did: its result, its events, and every tool call it ran. */
export interface TurnRun {
  result: TurnResult;
  events: TurnEvent[];
  dispatched: Dispatched[];
}

/**
 * Runs one turn asking `question` (or answering the transcript `messages`), with tools of these
 * names offered (taking any object), `toolDefinitions` as given, and `gateway` settings over the
 * defaults (no retries, a fresh provider memory).
 */
export async function agentTurn(
  gw: ScriptedGateway,
  options: {
    question?: string;
    messages?: ChatMessage[];
    stream: boolean;
    tools?: string[];
    toolDefinitions?: ToolDefinition[];
    gateway?: Partial<GatewayConfig>;
  },
): Promise<TurnRun> {
  const events: TurnEvent[] = [];
  const dispatched: Dispatched[] = [];
  const result = await runTurn(
    {
      turnId: 't1',
      messages: options.messages ?? [{ role: 'user', content: options.question ?? 'go' }],
      stream: options.stream,
      voiceMode: false,
    },
    {
      gateway: {
        url: gw.url,
        model: 'test-model',
        maxRetries: 0,
        memory: new ProviderMemory(),
        finishGraceMs: 50,
        ...options.gateway,
      },
      budgets: { maxRoundTrips: 4, iterTimeoutMs: 10_000, turnDeadlineMs: 0 },
      system: { role: 'system', content: 'You are Klebb.' },
      tools: [...functionTools(...(options.tools ?? [])), ...(options.toolDefinitions ?? [])],
      dispatch: async (name, args, argumentsError) => {
        dispatched.push({ name, args, ...(argumentsError ? { argumentsError } : {}) });
        return { ok: true, content: '{"ok":true}' };
      },
      parseVoice: (t) => ({ speak: t, display: t }),
    },
    (e) => events.push(e),
    new AbortController().signal,
  );
  return { result, events, dispatched };
}
