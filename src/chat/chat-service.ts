/**
 * Wires one chat turn to the instance: the system prompt from the current cards, reports and
 * docs; the gateway settings from the config; the tools with a context that records the turn as
 * the actor (`chat:<turn id>`). The loop itself is runTurn.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { CardContext } from '../cards/card-context.js';
import { compareCards } from '../cards/card-crud.js';
import { changeSetView } from '../cards/change-sets.js';
import { todayIn } from '../common/dates.js';
import type { Config } from '../config.js';
import type { HomeLayout } from '../home/home-layout.js';
import { serverTimeZone } from '../home/server-zone.js';
import { listReports } from '../reports/report-catalogue.js';
import { inChangeSet } from '../store/change-scope.js';
import { ResendGuard } from './agent/resend-guard.js';
import type { TurnEvent, TurnResult } from './agent/turn-events.js';
import { canonicalJson } from './agent/writes.js';
import { type ApprovalEvent, ApprovalHub } from './approvals/approval-hub.js';
import type { ChatRequest, TurnRequest } from './chat-request.js';
import type { GatewayLog } from './gateway/attempt-log.js';
import { ProviderMemory } from './gateway/provider-memory.js';
import { flattenContent } from './gateway/request.js';
import type { ChatMessage } from './gateway/types.js';
import { DEFAULT_BASE_PROMPT } from './prompt/base-prompt.js';
import { buildPromptSegments, type PromptInputs, systemMessage } from './prompt/segments.js';
import { parseVoiceReply, VOICE_ENVELOPE } from './prompt/voice.js';
import { availableDocs } from './tools/doc-catalogue.js';
import type { ToolContext, Touch } from './tools/tool.js';

/** The text of the newest user message (the one a turn answers); '' when there is none. */
function lastUserText(messages: ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'user') continue;
    return typeof m.content === 'string' ? m.content : flattenContent(m.content);
  }
  return '';
}

/** What a chat turn needs from the instance. */
export interface ChatDeps {
  config: Config;
  layout: HomeLayout;
  cards: CardContext;
  /** The user's time zone for "today"; undefined: the server's. */
  timeZone?: () => string | undefined;
  /** Where debug lines go (HEALTH_DEBUG=1). */
  debug?: (line: string) => void;
  /** The server's logger for the current request (failed gateway attempts are logged there). */
  log?: () => GatewayLog;
  /** Told when a turn ends: how, after how long (seconds), and the status a buffered reply had. */
  onTurnEnd?: (t: {
    turnId: string;
    reason: string;
    seconds: number;
    status: number;
    roundTrips: number;
  }) => void;
  /** Aborted at shutdown: every turn stops at its next checkpoint. */
  shutdownSignal?: AbortSignal;
  /** Whether a reminder will reach a device (set_notification reports it). */
  reminderDelivery?: ToolContext['reminderDelivery'];
}

/** Runs chat turns for one instance. */
export class ChatService {
  /** What the gateway taught us (refused fields, inline reasoning), kept across restarts under HEALTH_HOME. */
  private readonly memory: ProviderMemory;
  /** The writes of turns that failed after writing, so that a resent message does not repeat them. */
  private readonly resends = new ResendGuard();
  /** Destructive tool calls waiting for the person's answer. */
  readonly approvals = new ApprovalHub();
  /** The tool registry, loaded on the first turn: its schemas (TypeBox) are not needed to start serving. */
  private registry?: Promise<typeof import('./tools/registry.js')>;
  /** The turn loop and the gateway client, loaded on the first turn too. */
  private loop?: Promise<typeof import('./agent/run-turn.js')>;

  constructor(private readonly deps: ChatDeps) {
    this.memory = new ProviderMemory(path.join(deps.layout.home, 'chat', 'gateway-adaptations.json'));
  }

  /** Whether a chat endpoint is configured (else POST /api/chat is 503). */
  configured(): boolean {
    return this.deps.config.chat.endpointUrl !== undefined;
  }

  /**
   * Endpoint, key, model and capabilities for a gateway call (the turn loop and side calls such
   * as titles share them).
   */
  gatewayBase() {
    const chat = this.deps.config.chat;
    return {
      url: chat.endpointUrl as string,
      apiKey: chat.apiKey,
      model: chat.model,
      memory: this.memory,
      log: this.deps.log?.(),
      // verify the gateway's certificate unless the operator said otherwise (CHAT_TLS_VERIFY=0)
      tlsRejectUnauthorized: chat.tlsVerify,
      // the operator asked for prompt caching: send the breakpoints; a gateway that refuses
      // them is remembered and served without
      capabilities: chat.promptCache ? { cacheControl: true } : { cacheControl: false },
    };
  }

  /** The inputs of the system prompt for a request (cards in order, reports, docs, today, focus). */
  promptInputs(req: Pick<ChatRequest, 'viewedCardId'>): PromptInputs {
    const { config, cards, layout } = this.deps;
    const timeZone = this.deps.timeZone?.() ?? serverTimeZone();
    const all = cards.registry.all().sort(compareCards);
    const focus = req.viewedCardId ? cards.registry.get(req.viewedCardId) : undefined;
    return {
      basePrompt: config.chat.systemPrompt ?? DEFAULT_BASE_PROMPT(config.chatAgentName, config.instanceName),
      cards: all.map((c) => ({
        id: c.id,
        label: String(c.manifest.meta.label),
        emoji: typeof c.manifest.meta.emoji === 'string' ? c.manifest.meta.emoji : undefined,
        description: typeof c.manifest.description === 'string' ? c.manifest.description : undefined,
      })),
      reports: listReports(layout.reportsDir),
      docs: availableDocs(),
      today: todayIn(timeZone),
      timeZone,
      focusCard: focus
        ? {
            id: focus.id,
            label: String(focus.manifest.meta.label),
            emoji: typeof focus.manifest.meta.emoji === 'string' ? focus.manifest.meta.emoji : undefined,
            meta: focus.manifest.meta,
            description:
              typeof focus.manifest.description === 'string' ? focus.manifest.description : undefined,
          }
        : undefined,
    };
  }

  /**
   * Runs one turn to the end. `emit` receives every event; `signal` stops the turn at its next
   * checkpoint. A client that goes away must not abort `signal` (it only mutes the events).
   */
  async run(
    req: TurnRequest,
    emit: (e: TurnEvent) => void,
    signal: AbortSignal,
    turnId = randomUUID(),
  ): Promise<TurnResult & { touches: Touch[] }> {
    const { config, cards, layout } = this.deps;
    const chat = config.chat;
    const touches: Touch[] = [];
    const turnSignal = this.deps.shutdownSignal
      ? AbortSignal.any([signal, this.deps.shutdownSignal])
      : signal;
    // a conversation's turns share a prefix so that "undo that" reaches only this conversation
    const conv = req.conversationId;
    const actor = conv === undefined ? `chat:${turnId}` : `chat:${conv}/${turnId}`;
    const toolCtx: ToolContext = {
      cards,
      config,
      layout,
      actor,
      undoable: conv === undefined ? null : { actorPrefix: `chat:${conv}/`, except: actor },
      timeZone: this.deps.timeZone?.(),
      reminderDelivery: this.deps.reminderDelivery,
      touch: (t: Touch) => {
        if (!touches.some((x) => x.id === t.id)) touches.push(t);
      },
    };
    // an approval can be asked only where someone sees the `approval` event: a streamed turn, or
    // a conversation turn (whose events can be reattached to)
    if (req.stream || req.conversationId !== undefined) {
      toolCtx.approve = async (ask) => {
        const where = { conversationId: req.conversationId ?? null, turnId };
        let id = '';
        const announce = (data: ApprovalEvent) => {
          id = data.id;
          emit({ type: 'approval', data });
        };
        const decision = await this.approvals.request(ask, where, announce, turnSignal);
        if (id) emit({ type: 'approval-resolved', data: { id, decision } });
        return decision;
      };
    }
    // the reply names the turn's change set (read inside the turn's scope), so it can be undone;
    // the payload object is the turn result's too, so a buffered answer carries it alike
    const emitWithChanges = (e: TurnEvent) => {
      if (e.type === 'reply') {
        const setId = cards.store.changes.openSetId();
        const set = setId === undefined ? undefined : cards.store.changes.getSet(setId);
        if (set) {
          const view = changeSetView(cards, set);
          e.data.changeSet = { id: view.id, summary: view.summary };
        }
      }
      emit(e);
    };
    this.registry ??= import('./tools/registry.js');
    const { dispatchToolCall, toolDefinitions } = await this.registry;
    this.loop ??= import('./agent/run-turn.js');
    const { runTurn } = await this.loop;
    const segs = buildPromptSegments(this.promptInputs(req));
    const system = systemMessage(segs, {
      cache: chat.promptCache,
      voiceEnvelope: req.voiceMode ? VOICE_ENVELOPE : undefined,
    });
    const started = performance.now();
    const resendKey = ResendGuard.keyOf(req.conversationId, lastUserText(req.messages));
    const resend = this.resends.begin(resendKey);
    // the whole turn is one change set: everything its tools write is undone together
    const result = await inChangeSet({ actor: toolCtx.actor, fresh: true }, () =>
      runTurn(
        { turnId, messages: req.messages, stream: req.stream, voiceMode: req.voiceMode },
        {
          gateway: this.gatewayBase(),
          budgets: {
            maxRoundTrips: chat.maxTurns,
            iterTimeoutMs: chat.iterTimeoutMs,
            turnDeadlineMs: chat.turnDeadlineMs,
          },
          system,
          tools: toolDefinitions(),
          dispatch: async (name, args, argumentsError) => {
            // the same write, asked again by the same message after a failed turn: not applied twice
            const done =
              argumentsError === undefined
                ? resend.replay(`${name} ${canonicalJson(args ?? {})}`)
                : undefined;
            if (done) return { ok: true, content: done.content };
            return dispatchToolCall(name, args, toolCtx, argumentsError);
          },
          parseVoice: parseVoiceReply,
          debug: config.debug ? this.deps.debug : undefined,
        },
        emitWithChanges,
        turnSignal,
      ),
    );
    if (result.reason !== 'answered')
      this.resends.remember(resendKey, [...(result.writes ?? []), ...resend.unused()]);
    this.deps.onTurnEnd?.({
      turnId,
      reason: result.reason,
      seconds: (performance.now() - started) / 1000,
      status: result.status,
      roundTrips: result.roundTrips,
    });
    return { ...result, touches };
  }
}
