/**
 * Detached conversation turns (seed "Detached turns and reattach"; after LibreChat's stream job
 * store): a turn runs on the server whatever its client does. The hub holds at most one running
 * turn per conversation, numbers every event it emits, keeps them (newest TURN_EVENT_CAP), fans
 * them out to any number of attached listeners, and keeps a finished turn attachable for
 * TURN_LINGER_MS. Stopping is the abort signal; a listener going away is just a detach.
 *
 * Event ids are numbers that only grow, across turns and restarts (the turn's start time in ms
 * times 1000, plus its event number), so a Last-Event-ID from an earlier turn never hides the
 * events of a later one. Only while the clock does not step back: an id above every id a turn
 * has sent is taken as another turn's too, and the turn is replayed whole.
 */
import { conflict } from '../../errors.js';
import { TURN_EVENT_CAP, TURN_LINGER_MS } from '../../limits.js';
import type { TurnEvent } from '../agent/turn-events.js';

/** An event with its id in the turn's log. */
export interface NumberedEvent {
  id: number;
  event: TurnEvent;
}

/** A running or lingering turn. */
export interface HubTurn {
  conversationId: string;
  /** Id of the turn's first event minus one: `after` below it means "from the start". */
  baseId: number;
  events: NumberedEvent[];
  /** Events dropped from the head by the cap. */
  dropped: number;
  done: boolean;
  abort: AbortController;
  listeners: Set<(e: NumberedEvent) => void>;
  /** Settles when the turn's work has finished (after `done`). */
  finished: Promise<void>;
}

/** Options (tests shorten the linger). */
export interface TurnHubOptions {
  eventCap?: number;
  lingerMs?: number;
}

/** The registry of conversation turns of one instance. */
export class TurnHub {
  private readonly turns = new Map<string, HubTurn>();
  private lastBase = 0;
  private readonly cap: number;
  private readonly lingerMs: number;

  constructor(opts: TurnHubOptions = {}) {
    this.cap = opts.eventCap ?? TURN_EVENT_CAP;
    this.lingerMs = opts.lingerMs ?? TURN_LINGER_MS;
  }

  /** Whether a turn is running (not finished) for the conversation. */
  isRunning(conversationId: string): boolean {
    const t = this.turns.get(conversationId);
    return t !== undefined && !t.done;
  }

  /** Throws 409 when a turn is running for the conversation (checked before anything is stored). */
  assertFree(conversationId: string): void {
    if (this.isRunning(conversationId)) {
      throw conflict(
        'a turn is already running for this conversation; wait for it or stop it',
        'TURN_RUNNING',
      );
    }
  }

  /** The running or lingering turn of a conversation. */
  get(conversationId: string): HubTurn | undefined {
    return this.turns.get(conversationId);
  }

  /**
   * Claims the conversation's lock synchronously (409 when a turn is running, before anything is
   * stored), then runs `work(emit, signal)` in the background. `emit` numbers, keeps and fans out
   * each event. The turn is done after `work` settles (a `done` event is emitted if work did not).
   */
  start(
    conversationId: string,
    work: (emit: (e: TurnEvent) => void, signal: AbortSignal) => Promise<void>,
  ): HubTurn {
    this.assertFree(conversationId);
    const base = Math.max(Date.now() * 1000, this.lastBase + 1_000_000);
    this.lastBase = base;
    let resolveFinished = () => {};
    const turn: HubTurn = {
      conversationId,
      baseId: base,
      events: [],
      dropped: 0,
      done: false,
      abort: new AbortController(),
      listeners: new Set(),
      finished: new Promise<void>((r) => {
        resolveFinished = r;
      }),
    };
    this.turns.set(conversationId, turn);
    let n = 0;
    let sawDone = false;
    const emit = (event: TurnEvent) => {
      if (sawDone) return;
      if (event.type === 'done') sawDone = true;
      const numbered = { id: base + ++n, event };
      turn.events.push(numbered);
      if (turn.events.length > this.cap) {
        turn.events.shift();
        turn.dropped++;
      }
      for (const l of [...turn.listeners]) {
        try {
          l(numbered);
        } catch {
          turn.listeners.delete(l);
        }
      }
    };
    void (async () => {
      try {
        await work(emit, turn.abort.signal);
      } catch {
        emit({
          type: 'error',
          data: { error: 'The chat turn failed unexpectedly. Please try again.', status: 500 },
        });
      } finally {
        emit({ type: 'done', data: {} });
        turn.done = true;
        turn.listeners.clear();
        resolveFinished();
        const timer = setTimeout(() => {
          if (this.turns.get(conversationId) === turn) this.turns.delete(conversationId);
        }, this.lingerMs);
        timer.unref();
      }
    })();
    return turn;
  }

  /**
   * Attaches a listener: returns the events after `afterId` to replay (starting with a synthetic
   * `reset` when some of those were dropped by the cap) and, unless the turn is done, keeps the
   * listener for live events until `detach()` or the turn's end. An `afterId` this turn never
   * issued replays it from the start.
   * @returns undefined when no turn is running or lingering (the route answers 204).
   */
  attach(
    conversationId: string,
    afterId: number | undefined,
    listener: (e: NumberedEvent) => void,
  ): { replay: NumberedEvent[]; done: boolean; detach: () => void } | undefined {
    const turn = this.turns.get(conversationId);
    if (!turn) return undefined;
    // an id below this turn's, or above every id it has sent, belongs to another turn (an
    // earlier one, or one from before a restart on a clock that has since stepped back): the
    // client saw nothing of this turn yet
    const lastSent = turn.events.at(-1)?.id ?? turn.baseId;
    const foreign = afterId === undefined || afterId < turn.baseId || afterId > lastSent;
    const after = foreign ? turn.baseId : afterId;
    const replay = turn.events.filter((e) => e.id > after);
    const firstKept = turn.events[0]?.id ?? turn.baseId + 1;
    if (turn.dropped > 0 && after < firstKept - 1)
      replay.unshift({ id: firstKept - 1, event: { type: 'reset', data: {} } });
    if (!turn.done) turn.listeners.add(listener);
    return { replay, done: turn.done, detach: () => turn.listeners.delete(listener) };
  }

  /** Stops the running turn of a conversation; false when none is running. */
  stop(conversationId: string): boolean {
    const turn = this.turns.get(conversationId);
    if (!turn || turn.done) return false;
    turn.abort.abort('stopped');
    return true;
  }

  /** Stops every running turn and waits for them (shutdown). */
  async stopAll(): Promise<void> {
    const running = [...this.turns.values()].filter((t) => !t.done);
    for (const t of running) t.abort.abort('shutdown');
    await Promise.all(running.map((t) => t.finished));
  }
}
