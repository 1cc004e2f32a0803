/**
 * Shared set-up for the chat-tool tests: a real instance (startServer) and a ToolContext built
 * from it, so every tool is exercised through `dispatchToolCall` exactly as the agent loop does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { ApprovalDecision, ApprovalRequest } from '../../src/chat/approvals/approval-hub.js';
import { type ArgumentsError, type DispatchResult, dispatchToolCall } from '../../src/chat/tools/registry.js';
import type { ToolContext, Touch } from '../../src/chat/tools/tool.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** One dispatched call: the raw result plus its parsed `content`. */
export type Called = DispatchResult & { json: any };

export interface ToolEnv {
  s: TestServer;
  ctx: ToolContext;
  touches: Touch[];
  /** Approval requests the tools made, in order; each is answered with `decision` (default approved). */
  asked: ApprovalRequest[];
  decision: ApprovalDecision;
  /** dispatchToolCall(name, args, ctx) with the content parsed. */
  call(name: string, args: unknown, argumentsError?: ArgumentsError): Promise<Called>;
  /** The manifest file `<dataDir>/<id>.json`, parsed (undefined when absent). */
  file(id: string): any;
  /** The card's data via `GET /api/manifests/:id/data` (status and data). */
  data(id: string): Promise<{ status: number; data: any }>;
  close(): Promise<void>;
}

/** Starts a server and builds the tool context from its instance. */
export async function toolEnv(opts: Parameters<typeof startServer>[0] = {}): Promise<ToolEnv> {
  const s = await startServer(opts);
  const touches: Touch[] = [];
  const asked: ApprovalRequest[] = [];
  const env = { decision: 'approved' as ApprovalDecision };
  const ctx: ToolContext = {
    approve: async (req) => {
      asked.push(req);
      return env.decision;
    },
    cards: s.inst.cards,
    config: s.inst.config,
    layout: s.inst.layout,
    actor: 'chat:test',
    touch: (t) => {
      touches.push(t);
    },
  };
  return Object.assign(env, {
    s,
    ctx,
    touches,
    asked,
    async call(name: string, args: unknown, argumentsError?: ArgumentsError) {
      const r = await dispatchToolCall(name, args, ctx, argumentsError);
      expect(typeof r.content).toBe('string');
      return { ...r, json: JSON.parse(r.content) };
    },
    file(id: string) {
      const f = path.join(s.dataDir, `${id}.json`);
      return fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : undefined;
    },
    async data(id: string) {
      const r = await s.api(`/api/manifests/${encodeURIComponent(id)}/data`);
      return { status: r.status, data: r.body?.data };
    },
    close: () => s.close(),
  });
}

/** A minimal valid v1 manifest. */
export function manifest(
  id: string,
  data: unknown = [],
  meta: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    $schema: 'klebb.datafile.v1',
    meta: { id, label: id, writeable: { fromWebapp: true }, ...meta },
    ...extra,
    data,
  };
}
