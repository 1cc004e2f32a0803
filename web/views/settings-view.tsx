/**
 * Settings (`/settings`): every card with its master switch (`POST /api/settings/cards/:id/
 * enable|disable`), the order of the cards, and the theme. A switch moves at once and moves back,
 * with the server's reason, if the server refuses.
 *
 * Order: "Reorder" turns the list into a sortable one. A card is dragged by its handle with any
 * pointer (mouse, touch, pen: Pointer Events), or moved a step with its up and down buttons (the
 * keyboard and screen-reader way); each change is saved at once with `POST /api/manifests/reorder`
 * (the whole list, so every card gets `meta.order` 100, 200, …) and put back if the server
 * refuses. The list is re-read when the live feed says cards changed (`cardsVersion`), except
 * in the middle of a drag.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { descriptionForPeople } from '../../src/common/people-text.js';
import { Empty, ErrorNote, Loading } from '../components/status.js';
import { Switch } from '../components/switch.js';
import { ApiError, api } from '../lib/api.js';
import { browserTimeZone, instance } from '../lib/instance.js';
import { cardsVersion } from '../lib/live.js';
import { setTheme, type ThemeChoice, theme } from '../lib/theme.js';
import type { SettingsCard } from '../lib/types.js';
import { useResource } from '../lib/use-resource.js';
import { DataSettings } from './data-settings.js';
import { HistorySettings } from './history-settings.js';
import '../styles/views.css';

/** Settings; `section` `cards` (`/settings/cards`) brings the Cards panel into view on arrival. */
export function SettingsView({ section }: { section?: 'cards' } = {}) {
  useEffect(() => {
    if (section === 'cards') document.getElementById('settings-cards')?.scrollIntoView({ block: 'start' });
  }, [section]);
  return (
    <section class="view view-settings" aria-labelledby="view-title">
      <h1 class="view-title" id="view-title">
        Settings
      </h1>
      <a class="panel settings-security-link" href="/settings/security">
        Security: passkeys, devices and agent tokens ›
      </a>
      <a class="panel settings-security-link" href="/settings/notifications">
        Notifications: reminders on this device, quiet hours ›
      </a>
      <a class="panel settings-security-link" href="/settings/health-auto-export">
        Health Auto Export: connect your iPhone's health data ›
      </a>
      <CardsSettings />
      <DataSettings />
      <HistorySettings />
      <AppearanceSettings />
      <AboutSettings />
    </section>
  );
}

/** `ids` with the one at `from` moved to `to` (both clamped). */
export function moveId(ids: string[], from: number, to: number): string[] {
  const out = ids.slice();
  const [id] = out.splice(from, 1);
  out.splice(Math.max(0, Math.min(out.length, to)), 0, id);
  return out;
}

/** `cards` in the order of `ids` (cards missing from `ids`, new ones, go last in their own order). */
function ordered(cards: SettingsCard[], ids: string[] | null): SettingsCard[] {
  if (!ids) return cards;
  const pos = new Map(ids.map((id, i) => [id, i]));
  return cards
    .map((c, i) => ({ c, k: pos.get(c.id) ?? ids.length + i }))
    .sort((a, b) => a.k - b.k)
    .map((x) => x.c);
}

interface Drag {
  id: string;
  pointerId: number;
  /** Where in the row the pointer took hold, px from its top. */
  grab: number;
  /** The pointer's last clientY. */
  y: number;
}

/** `GET /api/settings/cards`: the cards in their order, and that order's ETag. */
interface CardList {
  cards: SettingsCard[];
  etag?: string;
}

function CardsSettings() {
  const dragging = useRef<Drag | null>(null);
  // a re-read during a drag would pull the list from under the finger: the list version is frozen until the drop
  const [frozenVersion, setFrozenVersion] = useState<number | null>(null);
  const listVersion = frozenVersion ?? cardsVersion.value;
  const res = useResource((signal) => api<CardList>('/api/settings/cards', { signal }), [listVersion]);
  const [busy, setBusy] = useState<Record<string, boolean>>({});
  const [problem, setProblem] = useState<{ id: string; message: string } | null>(null);
  const [reordering, setReordering] = useState(false);
  /** The order on screen while it differs from the server's (a drag, a save in flight). */
  const [order, setOrder] = useState<string[] | null>(null);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [announce, setAnnounce] = useState('');
  const [orderProblem, setOrderProblem] = useState<string | null>(null);
  const list = useRef<HTMLUListElement>(null);
  /** After a move by button: the control to keep the keyboard on. */
  const refocus = useRef<string | null>(null);

  const cards = res.data ? ordered(res.data.cards, order) : [];

  async function toggle(card: SettingsCard, enabled: boolean) {
    if (!res.data) return;
    const patch = (value: boolean) =>
      res.set((prev) => ({
        ...prev,
        cards: (prev?.cards ?? []).map((c) => (c.id === card.id ? { ...c, enabled: value } : c)),
      }));
    setProblem(null);
    setBusy((b) => ({ ...b, [card.id]: true }));
    patch(enabled);
    try {
      const r = await api<{ ok: boolean; enabled: boolean }>(
        `/api/settings/cards/${encodeURIComponent(card.id)}/${enabled ? 'enable' : 'disable'}`,
        { method: 'POST' },
      );
      patch(r.enabled);
    } catch (err) {
      patch(card.enabled);
      setProblem({ id: card.id, message: (err as Error).message });
    } finally {
      setBusy((b) => ({ ...b, [card.id]: false }));
    }
  }

  /** Saves `ids` as the card order; on refusal the list goes back to the server's order. */
  async function saveOrder(ids: string[], before: string[]) {
    if (ids.join('\n') === before.join('\n')) {
      setOrder(null);
      return;
    }
    setOrderProblem(null);
    setOrder(ids);
    try {
      // sent over the order this list was read with: a move decided on an order another device
      // changed since is refused, not written over that change
      const r = await api<{ etag: string }>('/api/manifests/reorder', {
        json: { order: ids },
        ifMatch: res.data?.etag,
      });
      res.set((prev) => ({ cards: ordered(prev?.cards ?? [], ids), etag: r.etag }));
      setOrder(null);
    } catch (err) {
      setOrder(null);
      if (err instanceof ApiError && err.status === 412) {
        setOrderProblem(
          'The order was changed on another device since this list was read; nothing was moved. The list now shows the saved order: move the card again.',
        );
        res.reload();
      } else setOrderProblem(`The new order was not saved: ${(err as Error).message}`);
    }
  }

  function moveBy(card: SettingsCard, step: -1 | 1) {
    const ids = cards.map((c) => c.id);
    const from = ids.indexOf(card.id);
    const to = from + step;
    if (from < 0 || to < 0 || to >= ids.length) return;
    const next = moveId(ids, from, to);
    refocus.current = `${card.id}:${step < 0 ? 'up' : 'down'}`;
    setAnnounce(`${card.label} moved to position ${to + 1} of ${ids.length}.`);
    void saveOrder(next, ids);
  }

  // keep the keyboard on the button that moved its card (or on its sibling at the list's end)
  useLayoutEffect(() => {
    const want = refocus.current;
    if (!want || !list.current) return;
    refocus.current = null;
    const [id, dir] = want.split(':');
    const row = list.current.querySelector<HTMLElement>(`[data-card-id="${CSS.escape(id)}"]`);
    const btn = row?.querySelector<HTMLButtonElement>(`.move-${dir}`);
    const other = row?.querySelector<HTMLButtonElement>(`.move-${dir === 'up' ? 'down' : 'up'}`);
    (btn && !btn.disabled ? btn : other)?.focus();
  });

  // ---- dragging by the handle ----
  const startOrder = useRef<string[]>([]);

  function rowEl(id: string): HTMLElement | null {
    return list.current?.querySelector<HTMLElement>(`[data-card-id="${CSS.escape(id)}"]`) ?? null;
  }

  /** Moves the dragged row under the pointer: swaps with a neighbour whose middle it passed, then follows the finger. */
  function follow() {
    const d = dragging.current;
    if (!d) return;
    const row = rowEl(d.id);
    if (!row) return;
    row.style.transform = '';
    const rect = row.getBoundingClientRect();
    const top = d.y - d.grab;
    const prev = row.previousElementSibling as HTMLElement | null;
    const next = row.nextElementSibling as HTMLElement | null;
    setOrder((cur) => {
      const ids = cur ?? cards.map((c) => c.id);
      const i = ids.indexOf(d.id);
      if (prev) {
        const r = prev.getBoundingClientRect();
        if (top < r.top + r.height / 2) return moveId(ids, i, i - 1);
      }
      if (next) {
        const r = next.getBoundingClientRect();
        if (top + rect.height > r.top + r.height / 2) return moveId(ids, i, i + 1);
      }
      return cur ?? ids;
    });
    row.style.transform = `translateY(${top - rect.top}px)`;
  }

  // after a swap re-rendered the rows, put the dragged one back under the finger
  useLayoutEffect(() => {
    if (dragging.current) follow();
  }, [order]);

  function onHandleDown(card: SettingsCard, e: PointerEvent) {
    if (dragging.current || (e.pointerType === 'mouse' && e.button !== 0)) return;
    const row = rowEl(card.id);
    if (!row) return;
    e.preventDefault();
    try {
      (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    } catch {
      // a pointer the browser no longer tracks: the drag still follows the handle's own events
    }
    startOrder.current = cards.map((c) => c.id);
    dragging.current = {
      id: card.id,
      pointerId: e.pointerId,
      grab: e.clientY - row.getBoundingClientRect().top,
      y: e.clientY,
    };
    setActiveId(card.id);
    setFrozenVersion(listVersion);
    setOrder(startOrder.current);
  }

  function onHandleMove(e: PointerEvent) {
    const d = dragging.current;
    if (!d || e.pointerId !== d.pointerId) return;
    d.y = e.clientY;
    follow();
  }

  function onHandleUp(e: PointerEvent) {
    const d = dragging.current;
    if (!d || e.pointerId !== d.pointerId) return;
    dragging.current = null;
    const row = rowEl(d.id);
    if (row) row.style.transform = '';
    setActiveId(null);
    const ids = (order ?? startOrder.current).slice();
    const card = cards.find((c) => c.id === d.id);
    const at = ids.indexOf(d.id);
    if (card && at !== startOrder.current.indexOf(d.id)) {
      setAnnounce(`${card.label} moved to position ${at + 1} of ${ids.length}.`);
    }
    void saveOrder(ids, startOrder.current);
    setFrozenVersion(null);
  }

  return (
    <section class="panel" aria-labelledby="settings-cards">
      <div class="panel-head">
        <h2 id="settings-cards" class="panel-title">
          Cards
        </h2>
        {!reordering && (
          <a class="button button-small button-primary panel-head-link" href="/settings/cards/add">
            Add a card
          </a>
        )}
        {res.data && res.data.cards.length > 1 && (
          <button
            type="button"
            class={`button button-small${reordering ? ' button-on' : ''}`}
            aria-pressed={reordering}
            onClick={() => setReordering((r) => !r)}
          >
            {reordering ? 'Done' : 'Reorder'}
          </button>
        )}
      </div>
      <p class="panel-hint">
        {reordering
          ? 'Drag a card by its handle, or move it with the arrows. The order is saved as you go.'
          : 'A card switched off leaves every page but keeps its data.'}
      </p>
      {orderProblem && (
        <p class="setting-error" role="alert">
          {orderProblem}
        </p>
      )}
      <p class="visually-hidden" aria-live="polite">
        {announce}
      </p>
      {!res.data ? (
        res.error ? (
          <ErrorNote error={res.error} onRetry={res.reload} />
        ) : (
          <Loading />
        )
      ) : res.data.cards.length === 0 ? (
        <Empty emoji="🗂️" title="No cards">
          <a href="/settings/cards/add">Add a card</a> from the gallery, or ask the chat to make one, for
          example “track my morning weight”.
        </Empty>
      ) : (
        <ul class={`setting-list${reordering ? ' setting-list-sorting' : ''}`} ref={list}>
          {cards.map((card, i) => (
            <li
              key={card.id}
              class={`setting-row${activeId === card.id ? ' setting-row-dragging' : ''}`}
              data-card-id={card.id}
            >
              {reordering && (
                <button
                  type="button"
                  class="drag-handle"
                  aria-label={`Drag ${card.label}`}
                  title="Drag to move"
                  onPointerDown={(e) => onHandleDown(card, e)}
                  onPointerMove={onHandleMove}
                  onPointerUp={onHandleUp}
                  onPointerCancel={onHandleUp}
                >
                  <GripIcon />
                </button>
              )}
              <span class="setting-emoji" aria-hidden="true">
                {card.emoji ?? ''}
              </span>
              <div class="setting-text">
                <span class="setting-label">{card.label}</span>
                {descriptionForPeople(card.description) && !reordering && (
                  <span class="setting-description" title={descriptionForPeople(card.description)}>
                    {descriptionForPeople(card.description)}
                  </span>
                )}
                {problem?.id === card.id && (
                  <span class="setting-error" role="alert">
                    {problem.message}
                  </span>
                )}
              </div>
              {reordering ? (
                <span class="move-buttons">
                  <button
                    type="button"
                    class="icon-button move-up"
                    aria-label={`Move ${card.label} up`}
                    disabled={i === 0}
                    onClick={() => moveBy(card, -1)}
                  >
                    <ArrowIcon up />
                  </button>
                  <button
                    type="button"
                    class="icon-button move-down"
                    aria-label={`Move ${card.label} down`}
                    disabled={i === cards.length - 1}
                    onClick={() => moveBy(card, 1)}
                  >
                    <ArrowIcon />
                  </button>
                </span>
              ) : (
                <Switch
                  checked={card.enabled}
                  label={`Show ${card.label}`}
                  busy={busy[card.id]}
                  onChange={(next) => void toggle(card, next)}
                />
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function GripIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false" fill="currentColor">
      {[5, 10, 15].flatMap((y) => [7, 13].map((x) => <circle key={`${x}-${y}`} cx={x} cy={y} r="1.6" />))}
    </svg>
  );
}

function ArrowIcon({ up = false }: { up?: boolean }) {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={up ? 'M12 19V5M5 12l7-7 7 7' : 'M12 5v14M5 12l7 7 7-7'} />
    </svg>
  );
}

const THEMES: { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

function AppearanceSettings() {
  return (
    <section class="panel" aria-labelledby="settings-appearance">
      <h2 id="settings-appearance" class="panel-title">
        Appearance
      </h2>
      <fieldset class="segmented">
        <legend class="visually-hidden">Theme</legend>
        {THEMES.map((t) => (
          <label key={t.value} class="segment">
            <input
              type="radio"
              name="theme"
              value={t.value}
              checked={theme.value === t.value}
              onChange={() => setTheme(t.value)}
            />
            {t.label}
          </label>
        ))}
      </fieldset>
    </section>
  );
}

function AboutSettings() {
  const tz = browserTimeZone();
  return (
    <section class="panel" aria-labelledby="settings-about">
      <h2 id="settings-about" class="panel-title">
        About
      </h2>
      <dl class="facts">
        <dt>Instance</dt>
        <dd>{instance.value?.name ?? '…'}</dd>
        <dt>Time zone</dt>
        <dd>{tz ?? 'not known'}</dd>
      </dl>
    </section>
  );
}
