/**
 * What the gateway taught us about itself: capabilities learnt from its refusals (and from its
 * replies, such as a model that starts inside inline reasoning), kept per endpoint origin and
 * model. With a file it survives a restart: the file is read once when the memory is made and
 * rewritten (crash-safe) whenever something new is learnt. A missing or unreadable file is an
 * empty memory, never an error: the worst case is one more refusal to learn from.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../home/atomic-write.js';
import type { ProviderCapabilities } from './types.js';

/** The file's shape: `{version: 1, learnt: {"<origin> <model>": {capability: value}}}`. */
interface MemoryFile {
  version: 1;
  learnt: Record<string, Partial<ProviderCapabilities>>;
}

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
  'keyInHeader',
  'toolSchemaSubset',
  'streaming',
  'thinkingBlocks',
  'unstreamed',
];

function keyOf(origin: string, model: string): string {
  return `${origin} ${model}`;
}

function readFile(file: string): Map<string, Partial<ProviderCapabilities>> {
  const out = new Map<string, Partial<ProviderCapabilities>>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return out;
  }
  const learnt = (parsed as Partial<MemoryFile> | null)?.learnt;
  if (typeof learnt !== 'object' || learnt === null) return out;
  for (const [key, caps] of Object.entries(learnt)) {
    if (typeof caps !== 'object' || caps === null) continue;
    const clean: Partial<ProviderCapabilities> = {};
    for (const k of BOOLEAN_KEYS) {
      const v = (caps as Record<string, unknown>)[k];
      if (typeof v === 'boolean') clean[k] = v;
    }
    out.set(key, clean);
  }
  return out;
}

/** Learnt capabilities per endpoint origin and model; persisted when made with a file path. */
export class ProviderMemory {
  private readonly learntBy: Map<string, Partial<ProviderCapabilities>>;

  /** `file`: where the memory lives (e.g. `$HEALTH_HOME/chat/gateway-adaptations.json`); none = this process only. */
  constructor(private readonly file?: string) {
    this.learntBy = file ? readFile(file) : new Map();
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
    this.save();
    return true;
  }

  /** What was learnt for this origin and model (possibly nothing). */
  learned(origin: string, model: string): Partial<ProviderCapabilities> {
    return { ...this.learntBy.get(keyOf(origin, model)) };
  }

  private save(): void {
    if (!this.file) return;
    const body: MemoryFile = { version: 1, learnt: Object.fromEntries(this.learntBy) };
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
