/**
 * The one way a repair of tool-call arguments is applied: for each call of a reply to a tool that
 * was offered, a reader may give the arguments the model meant; the call then runs with them and
 * goes back in the conversation's history so, and the reply's warnings say what was read.
 */
import type { GatewayResult, ToolDefinition } from './types.js';

/**
 * Rewrites, in place, the parsed arguments of every call of `result` to one of `tools` for which
 * `read(tool, args)` gives other arguments (undefined: leave the call as it is); `note(name)` is
 * the warning line added for each call rewritten.
 */
export function rewriteCallArguments(
  result: GatewayResult,
  tools: readonly ToolDefinition[] | undefined,
  read: (tool: ToolDefinition, args: Record<string, unknown>) => Record<string, unknown> | undefined,
  note: (name: string) => string,
): void {
  if (!tools || tools.length === 0) return;
  for (const call of result.toolCalls) {
    if (!call.parsedArguments) continue;
    const tool = tools.find((t) => t.function.name === call.name);
    const next = tool && read(tool, call.parsedArguments);
    if (!next) continue;
    call.parsedArguments = next;
    call.arguments = JSON.stringify(next);
    result.warnings.push(note(call.name));
  }
}
