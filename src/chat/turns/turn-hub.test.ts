// TurnHub: one running turn per
// conversation, numbered events fanned out to every listener, replay after an id, the per-turn
// event cap with a `reset` head, the linger after `done`, stop through the abort signal.
import { describe, expect, it } from 'vitest';
import type { TurnEvent } from '../agent/turn-events.js';
import { type NumberedEvent, TurnHub } from './turn-hub.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` holds (a hang guard, not a speed assertion). */
async function eventually(check: () => boolean, what: string, limitMs = 5_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`never happened: ${what}`);
    await sleep(5);
  }
}

/** A turn whose events the test pushes by hand and whose end the test decides. */
function manualTurn(hub: TurnHub, conversationId: string) {
  let emit: (e: TurnEvent) => void = () => {};
  let signal: AbortSignal | undefined;
  let finish: () => void = () => {};
  let fail: (err: unknown) => void = () => {};
  const ended = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const turn = hub.start(conversationId, async (e, s) => {
    emit = e;
    signal = s;
    await ended;
  });
  return {
    turn,
    emit: (e: TurnEvent) => emit(e),
    token: (text: string) => emit({ type: 'token', data: { text } }),
    signal: () => signal as AbortSignal,
    end: async () => {
      finish();
      await turn.finished;
    },
    fail: async (err: unknown) => {
      fail(err);
      await turn.finished;
    },
  };
}

/** The value, or a test failure when it is undefined. */
function defined<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected a value');
  return value;
}

const statusOf = (fn: () => unknown): number | undefined => {
  try {
    fn();
  } catch (err) {
    return (err as { status?: number }).status;
  }
  return undefined;
};

describe('TurnHub: the one-turn lock', () => {
  it('a second start while a turn runs is 409; after done a new turn starts (even while the old one lingers)', async () => {
    const hub = new TurnHub();
    const t = manualTurn(hub, 'c1');
    await sleep(0);
    expect(hub.isRunning('c1')).toBe(true);
    expect(statusOf(() => hub.start('c1', async () => {}))).toBe(409);
    expect(statusOf(() => hub.assertFree('c1'))).toBe(409);
    // other conversations are not locked
    expect(statusOf(() => hub.assertFree('c2'))).toBeUndefined();
    await t.end();
    expect(hub.isRunning('c1')).toBe(false);
    expect(hub.get('c1')?.done).toBe(true); // lingering
    expect(statusOf(() => hub.assertFree('c1'))).toBeUndefined();
    const again = hub.start('c1', async () => {});
    await again.finished;
    expect(again.done).toBe(true);
  });

  it('a work that throws still ends the turn with error then done, and releases the lock', async () => {
    const hub = new TurnHub();
    const t = manualTurn(hub, 'c1');
    await sleep(0);
    t.token('partial');
    await t.fail(new Error('boom'));
    const names = hub.get('c1')?.events.map((e) => e.event.type);
    expect(names).toEqual(['token', 'error', 'done']);
    expect(hub.isRunning('c1')).toBe(false);
  });
});

describe('TurnHub: numbering and fan-out', () => {
  it('numbers events in increasing order and ends with exactly one done', async () => {
    const hub = new TurnHub();
    const t = manualTurn(hub, 'c1');
    await sleep(0);
    t.emit({ type: 'status', data: { phase: 'thinking' } });
    t.token('a');
    t.token('b');
    t.emit({ type: 'reply', data: { reply: 'ab' } });
    t.emit({ type: 'done', data: {} });
    t.token('after done is ignored');
    await t.end();
    const events = hub.get('c1')?.events ?? [];
    expect(events.map((e) => e.event.type)).toEqual(['status', 'token', 'token', 'reply', 'done']);
    const ids = events.map((e) => e.id);
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]);
    expect(ids.every(Number.isSafeInteger)).toBe(true);
  });

  it('two listeners see identical events, live, through done', async () => {
    const hub = new TurnHub();
    const t = manualTurn(hub, 'c1');
    await sleep(0);
    t.token('early'); // before anyone attached: replayed
    const a: NumberedEvent[] = [];
    const b: NumberedEvent[] = [];
    const attA = hub.attach('c1', undefined, (e) => a.push(e));
    const attB = hub.attach('c1', undefined, (e) => b.push(e));
    expect(attA?.done).toBe(false);
    a.unshift(...(attA?.replay ?? []));
    b.unshift(...(attB?.replay ?? []));
    t.token('one');
    t.token('two');
    t.emit({ type: 'reply', data: { reply: 'early one two' } });
    await t.end();
    expect(a.map((e) => e.event.type)).toEqual(['token', 'token', 'token', 'reply', 'done']);
    expect(b).toEqual(a);
    expect(a).toEqual(hub.get('c1')?.events);
  });

  it('a detached listener gets nothing more; a listener that throws is dropped without hurting the others', async () => {
    const hub = new TurnHub();
    const t = manualTurn(hub, 'c1');
    await sleep(0);
    const gone: NumberedEvent[] = [];
    const kept: NumberedEvent[] = [];
    const att = hub.attach('c1', undefined, (e) => gone.push(e));
    hub.attach('c1', undefined, () => {
      throw new Error('listener failed');
    });
    hub.attach('c1', undefined, (e) => kept.push(e));
    t.token('x');
    att?.detach();
    t.token('y');
    await t.end();
    expect(gone.map((e) => e.event.type)).toEqual(['token']);
    expect(kept.map((e) => e.event.type)).toEqual(['token', 'token', 'done']);
  });

  it('attach with afterId replays only the later events, then stays live', async () => {
    const hub = new TurnHub();
    const t = manualTurn(hub, 'c1');
    await sleep(0);
    for (const w of ['a', 'b', 'c', 'd']) t.token(w);
    const all = hub.get('c1')?.events ?? [];
    const live: NumberedEvent[] = [];
    const att = hub.attach('c1', all[1].id, (e) => live.push(e));
    expect(att?.replay.map((e) => (e.event.data as { text: string }).text)).toEqual(['c', 'd']);
    expect(att?.replay.map((e) => e.id)).toEqual([all[2].id, all[3].id]);
    // an id at the end: nothing to replay
    expect(hub.attach('c1', all[3].id, () => {})?.replay).toEqual([]);
    // no id, or an id from before this turn (an earlier turn's): the whole log
    expect(hub.attach('c1', undefined, () => {})?.replay).toHaveLength(4);
    expect(hub.attach('c1', 1, () => {})?.replay).toHaveLength(4);
    t.token('e');
    await t.end();
    expect(live.map((e) => e.event.type)).toEqual(['token', 'done']);
    expect(live[0].id).toBeGreaterThan(all[3].id);
  });

  it('ids of a later turn are all greater than every id of an earlier one (same or other conversation)', async () => {
    const hub = new TurnHub();
    const first = manualTurn(hub, 'c1');
    await sleep(0);
    for (let i = 0; i < 50; i++) first.token(`t${i}`);
    await first.end();
    const firstIds = (hub.get('c1')?.events ?? []).map((e) => e.id);
    // started in the same millisecond: still above
    const second = manualTurn(hub, 'c1');
    const third = manualTurn(hub, 'c2');
    await sleep(0);
    second.token('s');
    third.token('t');
    await second.end();
    await third.end();
    const secondIds = (hub.get('c1')?.events ?? []).map((e) => e.id);
    const thirdIds = (hub.get('c2')?.events ?? []).map((e) => e.id);
    expect(Math.min(...secondIds)).toBeGreaterThan(Math.max(...firstIds));
    expect(Math.min(...thirdIds)).toBeGreaterThan(Math.max(...secondIds));
    // a Last-Event-ID of the first turn replays the second from its start
    expect(hub.attach('c1', Math.max(...firstIds), () => {})?.replay.map((e) => e.event.type)).toEqual([
      'token',
      'done',
    ]);
  });
});

describe('TurnHub: an id this turn never sent', () => {
  it('replays the whole turn for a Last-Event-ID above every id it issued (a clock stepped back across a restart)', async () => {
    // a device without a real-time clock (a Raspberry Pi) can come back from a power cut with its
    // clock behind the one before: a page still holding an id from then must not lose the reply
    const before = new TurnHub();
    const old = manualTurn(before, 'c1');
    await sleep(0);
    old.token('old');
    await old.end();
    const oldId = Math.max(...(before.get('c1')?.events ?? []).map((e) => e.id));
    const realNow = Date.now;
    Date.now = () => realNow() - 3_600_000;
    try {
      const hub = new TurnHub();
      const t = manualTurn(hub, 'c1');
      await sleep(0);
      t.token('a');
      t.token('b');
      const att = defined(hub.attach('c1', oldId, () => {}));
      expect(att.replay.map((e) => (e.event.data as { text?: string }).text)).toEqual(['a', 'b']);
      await t.end();
    } finally {
      Date.now = realNow;
    }
  });
});

describe('TurnHub: the 5000-event cap', () => {
  it('drops the head; a replay that needs dropped events starts with reset, one that does not has none', async () => {
    const hub = new TurnHub();
    const t = manualTurn(hub, 'c1');
    await sleep(0);
    for (let i = 0; i < 5200; i++) t.token(`w${i} `);
    const turn = defined(hub.get('c1'));
    expect(turn.events).toHaveLength(5000);
    expect(turn.dropped).toBe(200);
    expect((turn.events[0].event.data as { text: string }).text).toBe('w200 ');

    const full = defined(hub.attach('c1', undefined, () => {}));
    expect(full.replay).toHaveLength(5001);
    expect(full.replay[0].event).toEqual({ type: 'reset', data: {} });
    expect(full.replay[0].id).toBeLessThan(full.replay[1].id);
    expect((full.replay[1].event.data as { text: string }).text).toBe('w200 ');

    // the client had events up to w99: w100..w199 are gone, so the replay starts with reset
    const firstId = turn.baseId;
    const partial = defined(hub.attach('c1', firstId + 100, () => {}));
    expect(partial.replay[0].event.type).toBe('reset');
    expect(partial.replay).toHaveLength(5001);

    // the client had everything up to w199 (the last dropped one): nothing it needs is gone
    const exact = defined(hub.attach('c1', turn.events[0].id - 1, () => {}));
    expect(exact.replay[0].event.type).toBe('token');
    expect(exact.replay).toHaveLength(5000);

    const tail = defined(hub.attach('c1', turn.events[4990].id, () => {}));
    expect(tail.replay).toHaveLength(9);
    expect(tail.replay.every((e) => e.event.type === 'token')).toBe(true);

    await t.end();
    // done is kept too (the cap drops one more from the head)
    const after = defined(hub.attach('c1', undefined, () => {}));
    expect(after.done).toBe(true);
    expect(after.replay[0].event.type).toBe('reset');
    expect(after.replay.at(-1)?.event.type).toBe('done');
  });

  it('the cap is configurable (eventCap) and the text after a reset is the tail of the turn', async () => {
    const hub = new TurnHub({ eventCap: 3 });
    const t = manualTurn(hub, 'c1');
    await sleep(0);
    for (const w of ['a', 'b', 'c', 'd', 'e']) t.token(w);
    await t.end();
    const r = hub.attach('c1', undefined, () => {});
    expect(r?.replay.map((e) => e.event.type)).toEqual(['reset', 'token', 'token', 'done']);
  });
});

describe('TurnHub: linger and stop', () => {
  it('a finished turn lingers (replay through done, no live listener kept) and then attach returns undefined', async () => {
    const hub = new TurnHub({ lingerMs: 50 });
    expect(hub.attach('c1', undefined, () => {})).toBeUndefined();
    const t = manualTurn(hub, 'c1');
    await sleep(0);
    t.token('hi');
    await t.end();
    const late: NumberedEvent[] = [];
    const att = hub.attach('c1', undefined, (e) => late.push(e));
    expect(att?.done).toBe(true);
    expect(att?.replay.map((e) => e.event.type)).toEqual(['token', 'done']);
    expect(hub.get('c1')?.listeners.size).toBe(0);
    await eventually(() => hub.attach('c1', undefined, () => {}) === undefined, 'the lingering turn to go');
    expect(hub.get('c1')).toBeUndefined();
    expect(late).toEqual([]);
  });

  it('a newer turn is not removed by the linger timer of the older one', async () => {
    const hub = new TurnHub({ lingerMs: 50 });
    const a = manualTurn(hub, 'c1');
    await sleep(0);
    await a.end();
    const b = manualTurn(hub, 'c1');
    await sleep(120);
    expect(hub.get('c1')).toBe(b.turn);
    expect(hub.attach('c1', undefined, () => {})).toBeDefined();
    await b.end();
  });

  it('stop() aborts the running turn’s signal and answers true; false when nothing runs', async () => {
    const hub = new TurnHub({ lingerMs: 50 });
    expect(hub.stop('c1')).toBe(false);
    let sawAbort = false;
    const turn = hub.start('c1', async (emit, signal) => {
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      sawAbort = signal.aborted;
      emit({ type: 'stopped', data: {} });
    });
    await sleep(0);
    expect(hub.stop('c1')).toBe(true);
    await turn.finished;
    expect(sawAbort).toBe(true);
    expect(turn.abort.signal.aborted).toBe(true);
    expect(turn.events.map((e) => e.event.type)).toEqual(['stopped', 'done']);
    expect(hub.stop('c1')).toBe(false); // done (lingering)
    expect(hub.stop('other')).toBe(false);
  });

  it('stopAll stops every running turn and waits for them', async () => {
    const hub = new TurnHub();
    const signals: AbortSignal[] = [];
    for (const id of ['a', 'b']) {
      hub.start(id, async (_emit, signal) => {
        signals.push(signal);
        await new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => resolve(), { once: true }),
        );
      });
    }
    await sleep(0);
    await hub.stopAll();
    expect(signals.every((s) => s.aborted)).toBe(true);
    expect(hub.isRunning('a') || hub.isRunning('b')).toBe(false);
  });
});
