/**
 * What the gateway taught us about itself: capabilities learnt from its refusals (and from its
 * replies, such as a model that starts inside inline reasoning), kept per endpoint origin and
 * model. With a file it survives a restart: the file is read once when the memory is made and
 * rewritten (crash-safe) whenever something new is learnt. A missing or unreadable file is an
 * empty memory, never an error: the worst case is one more refusal to learn from.
 *
 * Most of what is learnt is how a server spells a request, true for as long as it runs that model.
 * That the server takes no tools at all is different: it is often how the server was started
 * (llama.cpp without `--jinja`, vLLM without a tool parser), which its owner fixes, and without
 * tools the assistant can only talk. So it is believed for TOOLS_OFF_FOR_MS only, then tools are
 * offered again: one refusal an hour where the server really has none, against an assistant that
 * never works again after the server was fixed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../home/atomic-write.js';
import type { ProviderCapabilities } from './types.js';

/**
 * The file's shape: `{version: 1, learnt: {"<origin> <model>": {capability: value}}, since:
 * {"<origin> <model>": epoch ms}}`; `since` is when `tools: false` was learnt.
 */
interface MemoryFile {
  version: 1;
  learnt: Record<string, Partial<ProviderCapabilities>>;
  since?: Record<string, number>;
}

/** How long a server's refusal of any tools is believed before tools are offered again (1 hour). */
export const TOOLS_OFF_FOR_MS = 60 * 60 * 1000;

const BOOLEAN_KEYS: Array<keyof ProviderCapabilities> = [
  'systemContentString',
  'cacheControl',
  'streamOptions',
  'toolMessageName',
  'toolChoice',
  'tools',
  'reasoningStartsInside',
  'reasoningDetails',
  'assistantNullContent',
  'reasoningContent',
  'systemRole',
  'alternatingRoles',
  'keyInHeader',
  'toolSchemaSubset',
  'streaming',
  'thinkingBlocks',
  'unstreamed',
  'temperature',
  'maxCompletionTokens',
  'modelPrefixDropped',
];

function keyOf(origin: string, model: string): string {
  return `${origin} ${model}`;
}

interface Remembered {
  learnt: Map<string, Partial<ProviderCapabilities>>;
  since: Map<string, number>;
}

function readFile(file: string): Remembered {
  const out = new Map<string, Partial<ProviderCapabilities>>();
  const since = new Map<string, number>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return { learnt: out, since };
  }
  const stamps = (parsed as Partial<MemoryFile> | null)?.since;
  if (typeof stamps === 'object' && stamps !== null)
    for (const [key, at] of Object.entries(stamps)) if (Number.isFinite(at)) since.set(key, at);
  const learnt = (parsed as Partial<MemoryFile> | null)?.learnt;
  if (typeof learnt !== 'object' || learnt === null) return { learnt: out, since };
  for (const [key, caps] of Object.entries(learnt)) {
    if (typeof caps !== 'object' || caps === null) continue;
    const clean: Partial<ProviderCapabilities> = {};
    for (const k of BOOLEAN_KEYS) {
      const v = (caps as Record<string, unknown>)[k];
      if (typeof v === 'boolean') clean[k] = v;
    }
    out.set(key, clean);
  }
  return { learnt: out, since };
}

/** Learnt capabilities per endpoint origin and model; persisted when made with a file path. */
export class ProviderMemory {
  private readonly learntBy: Map<string, Partial<ProviderCapabilities>>;
  /** When `tools: false` was learnt, per key (a file of before this was kept: now). */
  private readonly toolsOffSince: Map<string, number>;

  /**
   * `file`: where the memory lives (e.g. `$HEALTH_HOME/chat/gateway-adaptations.json`); none = this
   * process only. `now`: the clock, epoch ms.
   */
  constructor(
    private readonly file?: string,
    private readonly now: () => number = Date.now,
  ) {
    const read = file ? readFile(file) : { learnt: new Map(), since: new Map() };
    this.learntBy = read.learnt;
    this.toolsOffSince = read.since;
    for (const [key, caps] of this.learntBy)
      if (caps.tools === false && !this.toolsOffSince.has(key)) this.toolsOffSince.set(key, this.now());
  }

  /**
   * Records what `model` at `origin` accepts. Returns true when this changed what was known (and
   * then writes the file). A write that fails (read-only or full disk) keeps the memory for this
   * process and is otherwise ignored: adapting must never fail a chat turn.
   */
  learn(origin: string, model: string, caps: Partial<ProviderCapabilities>): boolean {
    const key = keyOf(origin, model);
    const before = this.learntBy.get(key) ?? {};
    const changed = Object.entries(caps).some(([k, v]) => before[k as keyof ProviderCapabilities] !== v);
    if (!changed) return false;
    this.learntBy.set(key, { ...before, ...caps });
    if (caps.tools === false) this.toolsOffSince.set(key, this.now());
    else if (caps.tools === true) this.toolsOffSince.delete(key);
    this.save();
    return true;
  }

  /**
   * Forgets what was learnt of `keys` for this origin and model (a repair that did not help), so the
   * built-in table and the defaults apply again. Returns true when something was forgotten.
   */
  forget(origin: string, model: string, keys: Array<keyof ProviderCapabilities>): boolean {
    const key = keyOf(origin, model);
    const before = this.learntBy.get(key);
    if (!before || !keys.some((k) => k in before)) return false;
    const after = { ...before };
    for (const k of keys) delete after[k];
    this.learntBy.set(key, after);
    if (keys.includes('tools')) this.toolsOffSince.delete(key);
    this.save();
    return true;
  }

  /**
   * What was learnt for this origin and model (possibly nothing). A refusal of any tools older
   * than TOOLS_OFF_FOR_MS is forgotten here, with the tool_choice learnt with it, so the next
   * request offers the tools again.
   */
  learned(origin: string, model: string): Partial<ProviderCapabilities> {
    const key = keyOf(origin, model);
    const since = this.toolsOffSince.get(key);
    if (since !== undefined && this.now() - since >= TOOLS_OFF_FOR_MS)
      this.forget(origin, model, ['tools', 'toolChoice']);
    return { ...this.learntBy.get(key) };
  }

  private save(): void {
    if (!this.file) return;
    const body: MemoryFile = {
      version: 1,
      learnt: Object.fromEntries(this.learntBy),
      since: Object.fromEntries(this.toolsOffSince),
    };
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      writeFileAtomic(this.file, `${JSON.stringify(body, null, 2)}\n`);
    } catch {
      // kept in memory; the next successful learn writes everything
    }
  }
}

/** The process-wide memory used when the caller passes none. */
export const defaultProviderMemory = new ProviderMemory();
