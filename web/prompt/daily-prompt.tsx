/**
 * The daily prompt (docs/MANIFEST-SCHEMA.md "prompt (daily modal)"; docs/MANIFEST-SCHEMA.md
 * "prompt"): when the app loads on the live Today page, each card whose `meta.prompt` asks today
 * (web/prompt/prompt-rules.ts) opens a full-screen dialog in turn, by `meta.order`: its entry
 * form (`modal`) or a "Taken" button per item due today (`checklist`). Saving, Done or dismissing
 * (Escape, "Skip for today", Cancel) marks the card as asked for the day in localStorage
 * (web/prompt/shown-store.ts), so it does not ask again that day, after a reload or in another
 * tab. A page left open into the next day asks again when it is looked at on that day.
 *
 * The card list comes from `GET /api/manifests` (every card, also those not on Today), read when
 * the browser is idle after the first page is drawn, and again when the live feed reports a card
 * change; the cards' data comes from the shared cache (web/lib/card-data.ts) the dashboard has
 * already filled. A card being asked stays until the person closes it, even when a tick or a
 * write from elsewhere means it would no longer ask.
 *
 * A hidden marker `[data-prompt-state]` says where things stand: `off` (not the live Today page
 * at app load), `loading`, `open`, or `done` (nothing, or nothing more, to ask).
 */
import { signal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { cardDataSignal } from '../lib/card-data.js';
import { longDate, today } from '../lib/dates.js';
import { cardsVersion } from '../lib/live.js';
import { type Match, matchRoute, route } from '../lib/router.js';
import { PromptChecklist } from './prompt-checklist.js';
import { PromptDialog } from './prompt-dialog.js';
import { PromptEntry } from './prompt-entry.js';
import { type PromptCard, promptCandidates, promptConfigOf, wantsPrompt } from './prompt-rules.js';
import { markShown, type ShownHow, shownVersion, wasShown } from './shown-store.js';

/** How long to wait for an idle moment before reading the card list anyway, in ms. */
const IDLE_TIMEOUT_MS = 1_500;

/** The day the prompts were armed for (app load on the live Today page), or null. */
const armedDay = signal<string | null>(null);
let loadSeen = false;

const isLiveToday = (m: Match, now: string) => m.name === 'today' && (m.date === null || m.date === now);

/** Runs `fn` when the browser is idle (or after IDLE_TIMEOUT_MS); returns a cancel function. */
function whenIdle(fn: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const h = requestIdleCallback(fn, { timeout: IDLE_TIMEOUT_MS });
    return () => cancelIdleCallback(h);
  }
  const t = setTimeout(fn, 200);
  return () => clearTimeout(t);
}

/** Props of DailyPrompt: the current route. */
export interface DailyPromptProps {
  match: Match;
}

export function DailyPrompt({ match }: DailyPromptProps) {
  const now = today();
  const live = isLiveToday(match, now);
  // armed once, by the route the app loaded on
  if (!loadSeen) {
    loadSeen = true;
    if (live) armedDay.value = now;
  }
  const day = armedDay.value;
  const active = live && day === now;
  const version = cardsVersion.value;
  shownVersion.value; // re-check after a card is marked as asked
  const [cards, setCards] = useState<PromptCard[] | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);

  // a page left open overnight asks again when it is looked at on the new day
  useEffect(() => {
    const onVisible = () => {
      const t = today();
      if (
        document.visibilityState === 'visible' &&
        armedDay.value !== null &&
        armedDay.value !== t &&
        isLiveToday(matchRoute(route.value), t)
      ) {
        armedDay.value = t;
      }
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, []);

  useEffect(() => {
    if (!active) return;
    let cancelled = false;
    const cancelIdle = whenIdle(() => {
      api<{ entries?: { id?: unknown; meta?: unknown }[] }>('/api/manifests').then(
        (body) => {
          if (cancelled) return;
          const list: PromptCard[] = [];
          for (const e of body.entries ?? []) {
            if (typeof e?.id === 'string' && e.meta !== null && typeof e.meta === 'object') {
              list.push({ id: e.id, meta: e.meta as Record<string, unknown> });
            }
          }
          setCards(promptCandidates(list));
        },
        () => {
          // nothing to ask this time; the next card change tries again
          if (!cancelled) setCards((c) => c ?? []);
        },
      );
    });
    return () => {
      cancelled = true;
      cancelIdle();
    };
  }, [active, version]);

  // the next card to ask: the first in order not asked yet that asks today; wait for one still loading
  let next: PromptCard | null = null;
  let waiting = active && cards === null;
  if (active && cards && openId === null && day) {
    for (const c of cards) {
      if (wasShown(c.id, day)) continue;
      const s = cardDataSignal(c.id).value;
      if (s.data === undefined) {
        if (s.loading) {
          waiting = true;
          break;
        }
        continue; // its data could not be read: skip it
      }
      if (wantsPrompt(c.meta, s.data, day)) {
        next = c;
        break;
      }
    }
  }
  const open = active && openId !== null ? (cards?.find((c) => c.id === openId) ?? null) : null;
  const shown = open ?? (active ? next : null);

  useEffect(() => {
    if (!active) {
      if (openId !== null) setOpenId(null);
    } else if (openId !== null && !open && cards !== null) {
      setOpenId(null); // the card went away (deleted, prompt switched off)
    } else if (openId === null && next) {
      setOpenId(next.id);
    }
  }, [active, openId, open, next, cards]);

  const finish = (id: string, how: ShownHow) => {
    if (day) markShown(id, day, how);
    setOpenId(null);
  };

  const state = !active ? 'off' : shown ? 'open' : waiting ? 'loading' : 'done';
  const mode = shown ? promptConfigOf(shown.meta).mode : null;
  return (
    <>
      <span hidden class="daily-prompt-state" data-prompt-state={state} />
      {shown && day && (
        <PromptDialog
          key={shown.id}
          emoji={typeof shown.meta.emoji === 'string' ? shown.meta.emoji : undefined}
          label={typeof shown.meta.label === 'string' ? shown.meta.label : shown.id}
          subtitle={`${mode === 'checklist' ? 'Due today' : 'Daily check-in'} · ${longDate(day)}`}
          onDismiss={() => finish(shown.id, 'dismissed')}
        >
          {mode === 'checklist' ? (
            <PromptChecklist card={shown} day={day} onDone={() => finish(shown.id, 'saved')} />
          ) : (
            <PromptEntry
              card={shown}
              day={day}
              onSaved={() => finish(shown.id, 'saved')}
              onDismiss={() => finish(shown.id, 'dismissed')}
            />
          )}
        </PromptDialog>
      )}
    </>
  );
}
