/**
 * Assembling tool calls from fragments by what a call is (a name and one argument object), not
 * by trusting `index` or `id`. Real gateways stream several calls under one index, put a new id
 * on every fragment, repeat one id on every fragment, leave the index out, split the name across
 * fragments or restate it on each, and send arguments as growing snapshots instead of deltas (or
 * replay the whole text once more at the end). The rules, per fragment:
 * - a fragment with a name starts a new call when there is no call yet, when its id belongs to no
 *   call while the current call already has an id and a name, when its index is new, or when the
 *   call it would continue already holds a complete argument object, unless that call has no name
 *   yet (the id and arguments came first, the name in a later piece); otherwise it continues it
 *   (a name equal to the call's is a restatement, any other extends a name still being streamed);
 * - a fragment without a name continues the call with its id, else the newest call with its
 *   index, else the current call; a complete argument object arriving on a call that already
 *   holds one is a further call to the same tool;
 * - argument text equal to what the call holds is a replay and is dropped, and so is a complete
 *   object equal to the one the call holds once both are read (a gateway re-serialises the
 *   arguments it already streamed, spaces changed, in a closing chunk); text that begins with
 *   everything the call holds is a snapshot and replaces it, and so is a complete object that
 *   begins with it once spaces and string escapes are set aside (vLLM's parsers flush the whole
 *   arguments again after the streamed pieces, re-serialised); other text is a delta and appends;
 * - such a complete object may also have been a nested value after all (`{"filter": ` then
 *   `{"filter": "x"}` then `}`): when more argument text follows it, the pieces are joined as
 *   deltas instead;
 * - a fragment without an id restating a call's name and its very arguments is that call again,
 *   not a second call (running it twice would repeat a write);
 * - one id may stand for several calls (servers that put the response's id on every call, or
 *   reuse one call id across parallel calls): once the call with that id holds a name and its
 *   complete arguments, a named fragment starts a new call under another index, or, without
 *   indexes, when it brings arguments other than the call's; a fragment goes to the newest call
 *   with its id, under its index when there is one;
 * - two calls under one id with the same name and the same arguments are one call sent twice
 *   (a server whose two parsers each emitted it, under two indexes): it is kept once;
 * - an empty object `{}` followed, without a name, by other argument text was a placeholder (relays
 *   that seed the arguments with `{}`): the text that follows replaces it;
 * - a call to a tool without parameters may come with no `arguments` at all: when the request's
 *   tools are known, a name that is an offered tool arriving on a call that already names one
 *   (and the two names together name none) is the next call, not the rest of a name.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ToolFragment } from './chunk-normaliser.js';
import { jsonTextForm } from './json-text-form.js';
import { readFirstJsonValue } from './tool-arguments.js';

/** A call as assembled so far. */
export interface AssembledCall {
  /** The provider's first id, for logs only: the id we send is ours. */
  providerId?: string;
  index?: number;
  name: string;
  /** Argument text (deltas joined, or the last snapshot), or an object the gateway sent. */
  arguments: string | Record<string, unknown>;
  /** Provider fields to echo on the next request (merged over all fragments). */
  extras?: Record<string, unknown>;
}

/** The assembler of one choice's calls. */
export interface CallAssembler {
  add(fragment: ToolFragment): void;
  /** The calls by index when every call has one (stable: calls sharing an index keep their order), else in the order they started. */
  calls(): AssembledCall[];
}

/** True when `text` is exactly one complete JSON object (whitespace around allowed). */
function completeObject(text: string): boolean {
  const t = text.trim();
  if (t[0] !== '{' || t[t.length - 1] !== '}') return false;
  const first = readFirstJsonValue(t);
  return first !== undefined && first.rest.trim() === '';
}

function holdsCompleteArguments(call: AssembledCall): boolean {
  return typeof call.arguments === 'object' || completeObject(call.arguments);
}

/** The arguments as a value when they are one complete object (text or object), else undefined. */
function argumentValue(args: string | Record<string, unknown>): unknown {
  if (typeof args === 'object') return args;
  if (!completeObject(args)) return undefined;
  return readFirstJsonValue(args.trim())?.value;
}

/** True when `args` is an empty argument object, as text (`{}`) or as an object. */
function emptyObject(args: string | Record<string, unknown>): boolean {
  return typeof args === 'object' ? Object.keys(args).length === 0 : /^\s*\{\s*\}\s*$/.test(args);
}

/** True when `args` is a complete object equal to the complete object the call holds. */
function sameArguments(call: AssembledCall, args: string | Record<string, unknown> | undefined): boolean {
  if (args === undefined) return false;
  const held = argumentValue(call.arguments);
  return held !== undefined && isDeepStrictEqual(held, argumentValue(args));
}

/**
 * True when `f`, whose id is `known`'s, is another call: `known` is already whole (a name and its
 * complete arguments) and `f` names a tool either under another index, or, without indexes to
 * tell, with arguments of its own that are not `known`'s again.
 */
function anotherUnderSameId(known: AssembledCall, f: ToolFragment): boolean {
  if (f.name === undefined || known.name === '' || !holdsCompleteArguments(known)) return false;
  if (f.index !== undefined && known.index !== undefined) return f.index !== known.index;
  return f.args !== undefined && !blankText(f.args) && !sameArguments(known, f.args);
}

/**
 * True when the named fragment `f` is the name of `candidate`, a call that came without one
 * (servers that send the id and arguments first and the name in a later piece): it brings no
 * arguments of its own, or the same ones, or the call's arguments are not complete yet.
 */
function namesNameless(candidate: AssembledCall, f: ToolFragment): boolean {
  if (candidate.name !== '') return false;
  if (f.id !== undefined && candidate.providerId !== undefined && f.id !== candidate.providerId) return false;
  if (f.args === undefined || blankText(f.args) || !holdsCompleteArguments(candidate)) return true;
  return sameArguments(candidate, f.args);
}

/** True for arguments that say nothing: '' or whitespace. */
function blankText(args: string | Record<string, unknown>): boolean {
  return typeof args === 'string' && args.trim() === '';
}

/** `calls` without a call that repeats an earlier one: the same provider id, name and arguments. */
function withoutRepeats(calls: AssembledCall[]): AssembledCall[] {
  return calls.filter(
    (c, i) =>
      c.providerId === undefined ||
      !calls
        .slice(0, i)
        .some((e) => e.providerId === c.providerId && e.name === c.name && sameArguments(e, c.arguments)),
  );
}

/**
 * True when `args` is a complete argument object that begins with everything `held` (the
 * arguments so far, not yet complete) says, written alike or not: the whole arguments sent again.
 */
function wholeAgain(held: string, args: string): boolean {
  if (!completeObject(args) || completeObject(held)) return false;
  const before = jsonTextForm(held);
  return before.startsWith('{') && args.length > 0 && jsonTextForm(args).startsWith(before);
}

/** What an assembler knows of the request: the names of the tools it offered, when known. */
export interface CallAssemblerOptions {
  offeredTools?: ReadonlySet<string>;
}

/**
 * True when `name` on a call that holds `held` and no arguments is another call, not more of the
 * name: both name offered tools and together they name none (a tool without parameters whose
 * call came with no `arguments`, then the next call).
 */
function nextCallByName(held: string, name: string, offered: ReadonlySet<string> | undefined): boolean {
  if (!offered || held === '' || held === name) return false;
  return offered.has(held) && offered.has(name) && !offered.has(held + name);
}

/** Creates an assembler for one choice. */
export function createCallAssembler(options: CallAssemblerOptions = {}): CallAssembler {
  const calls: AssembledCall[] = [];
  const idsOf = new Map<AssembledCall, Set<string>>();
  // a call whose whole arguments replaced what it held: the pieces joined as deltas instead, the
  // reading to go back to should more argument text follow
  const joinedOf = new Map<AssembledCall, string>();
  let current: AssembledCall | undefined;

  const open = (f: ToolFragment, name = ''): AssembledCall => {
    const call: AssembledCall = { name, arguments: '' };
    if (f.id !== undefined) call.providerId = f.id;
    if (f.index !== undefined) call.index = f.index;
    calls.push(call);
    idsOf.set(call, new Set(f.id !== undefined ? [f.id] : []));
    current = call;
    return call;
  };
  /** The newest call with this id, under this index when one is. */
  const byId = (id: string | undefined, index: number | undefined) => {
    if (id === undefined) return undefined;
    const withId = calls.filter((c) => idsOf.get(c)?.has(id)).reverse();
    return withId.find((c) => index !== undefined && c.index === index) ?? withId[0];
  };
  const byIndex = (index: number | undefined) =>
    index === undefined ? undefined : [...calls].reverse().find((c) => c.index === index);

  const target = (f: ToolFragment): AssembledCall => {
    const known = byId(f.id, f.index);
    if (known && !anotherUnderSameId(known, f)) return known;
    if (known) return open(f);
    if (f.name !== undefined) {
      if (!current) return open(f);
      const sameIndex = byIndex(f.index);
      const candidate = f.index !== undefined ? sameIndex : current;
      if (!candidate) return open(f);
      const freshId = f.id !== undefined && candidate.providerId !== undefined && candidate.name !== '';
      if (freshId) return open(f);
      const restated = f.id === undefined && f.name === candidate.name && sameArguments(candidate, f.args);
      if (namesNameless(candidate, f)) return candidate;
      if (holdsCompleteArguments(candidate) && !restated) return open(f);
      if (candidate.arguments === '' && nextCallByName(candidate.name, f.name, options.offeredTools))
        return open(f);
      return candidate;
    }
    return byIndex(f.index) ?? current ?? open(f);
  };

  const addArguments = (call: AssembledCall, args: string | Record<string, unknown>) => {
    const joined = joinedOf.get(call);
    joinedOf.delete(call);
    if (typeof args === 'object') {
      call.arguments = args;
      return;
    }
    if (typeof call.arguments === 'object') return; // an object already came: text after it is a restatement
    if (args.trim() === '') {
      // blank text changes neither reading
      if (joined === undefined) call.arguments += args;
      else joinedOf.set(call, joined + args);
      return;
    }
    if (args === call.arguments || sameArguments(call, args)) {
      // a replay of the whole arguments
      if (joined !== undefined) joinedOf.set(call, joined);
      return;
    }
    // more text after whole arguments that replaced the pieces: they were a nested value, not a replay
    if (joined !== undefined) call.arguments = joined;
    const held = call.arguments;
    if (held === '') {
      call.arguments = args;
      return;
    }
    if (wholeAgain(held, args)) {
      call.arguments = args;
      joinedOf.set(call, held + args);
      return;
    }
    if (args.length > held.length && (held.length >= 2 || held === '{') && args.startsWith(held)) {
      call.arguments = args; // a growing snapshot
      return;
    }
    call.arguments = held + args;
  };

  return {
    add(f: ToolFragment): void {
      let call = target(f);
      current = call;
      if (f.id !== undefined) idsOf.get(call)?.add(f.id);
      if (call.providerId === undefined && f.id !== undefined) call.providerId = f.id;
      if (f.name !== undefined && f.name !== call.name) {
        // a restated name is ignored; a different one extends a name still streaming
        call.name = call.name === '' || call.arguments !== '' ? call.name || f.name : call.name + f.name;
      }
      if (f.extras) call.extras = { ...call.extras, ...f.extras };
      if (f.args === undefined) return;
      if (f.name === undefined && typeof f.args === 'string' && emptyObject(call.arguments)) {
        // `{}` first as a placeholder (a relay seeding the arguments), then the real ones
        if (f.args.trimStart().startsWith('{') && !emptyObject(f.args)) call.arguments = '';
      }
      if (
        f.name === undefined &&
        typeof f.args === 'string' &&
        holdsCompleteArguments(call) &&
        f.args !== call.arguments &&
        completeObject(f.args) &&
        !sameArguments(call, f.args) &&
        !(typeof call.arguments === 'string' && f.args.startsWith(call.arguments))
      ) {
        // a second whole argument object under the same call: another call to the same tool
        const name = call.name;
        call = open({ index: call.index }, name);
      }
      addArguments(call, f.args);
    },
    calls: () =>
      withoutRepeats(
        calls.every((c) => c.index !== undefined)
          ? [...calls].sort((a, b) => (a.index as number) - (b.index as number))
          : calls,
      ),
  };
}
