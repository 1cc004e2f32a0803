/**
 * The frame around a provider's quirk, for scripting the stand-in gateway: a gateway started for
 * each test, SSE events of chat.completion.chunk objects, whole JSON answers and tool
 * definitions. The quirk itself (an odd field, a piece out of order) stays in the test; only the
 * bytes every provider sends alike come from here, so a test shows what it is about.
 */
import { afterEach, beforeEach } from 'vitest';
import { type ScriptedGateway, type ScriptStep, startScriptedGateway } from '../helpers/scripted-gateway.js';

/** A JSON object as a provider sends it. */
export type Body = Record<string, unknown>;

/** The event that ends an OpenAI-style stream. */
export const DONE = 'data: [DONE]\n\n';

/**
 * A scripted gateway started before each test of the file and closed after it. The object
 * answers for the gateway of the test running now (its url, script, requests); reading it
 * outside a test throws.
 */
export function scriptedGatewayPerTest(): ScriptedGateway {
  let current: ScriptedGateway | undefined;
  beforeEach(async () => {
    current = await startScriptedGateway();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return new Proxy({} as ScriptedGateway, {
    get(_target, key) {
      if (!current) throw new Error('the scripted gateway runs only inside a test');
      const value: unknown = Reflect.get(current, key);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}

/** Function tools of these names taking any object, as the request's `tools`. */
export function functionTools(...names: string[]) {
  return names.map((name) => ({
    type: 'function' as const,
    function: { name, parameters: { type: 'object' } },
  }));
}

/** One SSE event carrying `payload` as JSON. */
export function dataEvent(payload: Body): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

/**
 * An SSE event of a chat.completion.chunk whose one choice is `choice` at index 0 (no
 * finish_reason unless the choice has one), with `extra` fields beside `choices`.
 */
export function choiceEvent(choice: Body, extra: Body = {}): string {
  return dataEvent({
    object: 'chat.completion.chunk',
    model: 'm',
    choices: [{ index: 0, ...choice }],
    ...extra,
  });
}

/** A streamed answer of these events, sent as they are. */
export function sseStep(...events: string[]): ScriptStep {
  return { kind: 'bytes', chunks: events };
}

/** A whole JSON answer (a chat.completion, or an error body) with status 200. */
export function jsonStep(body: Body): ScriptStep {
  return { kind: 'bytes', headers: { 'Content-Type': 'application/json' }, chunks: [JSON.stringify(body)] };
}

/** A whole chat.completion whose one choice is `choice` at index 0, with `extra` top-level fields. */
export function completionStep(choice: Body, extra: Body = {}): ScriptStep {
  return jsonStep({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    model: 'm',
    choices: [{ index: 0, ...choice }],
    ...extra,
  });
}
