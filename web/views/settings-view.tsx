/**
 * Settings (`/settings`): every card with its master switch (`POST /api/settings/cards/:id/
 * enable|disable`), and the theme. A switch moves at once and moves back, with the server's
 * reason, if the server refuses.
 */
import { useState } from 'preact/hooks';
import { Empty, ErrorNote, Loading } from '../components/status.js';
import { Switch } from '../components/switch.js';
import { api } from '../lib/api.js';
import { browserTimeZone, instance } from '../lib/instance.js';
import { setTheme, type ThemeChoice, theme } from '../lib/theme.js';
import type { SettingsCard } from '../lib/types.js';
import { useResource } from '../lib/use-resource.js';

export function SettingsView() {
  return (
    <section class="view view-settings" aria-labelledby="view-title">
      <h1 class="view-title" id="view-title">
        Settings
      </h1>
      <CardsSettings />
      <AppearanceSettings />
      <AboutSettings />
    </section>
  );
}

function CardsSettings() {
  const res = useResource((signal) => api<{ cards: SettingsCard[] }>('/api/settings/cards', { signal }), []);
  const [busy, setBusy] = useState<Record<string, boolean>>({});
  const [problem, setProblem] = useState<{ id: string; message: string } | null>(null);

  async function toggle(card: SettingsCard, enabled: boolean) {
    if (!res.data) return;
    const patch = (value: boolean) =>
      res.set((prev) => ({
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

  return (
    <section class="panel" aria-labelledby="settings-cards">
      <h2 id="settings-cards" class="panel-title">
        Cards
      </h2>
      <p class="panel-hint">A card switched off leaves every page but keeps its data.</p>
      {!res.data ? (
        res.error ? (
          <ErrorNote error={res.error} onRetry={res.reload} />
        ) : (
          <Loading />
        )
      ) : res.data.cards.length === 0 ? (
        <Empty emoji="🗂️" title="No cards">
          Card files in the <code>data/</code> folder of your Klebb home appear here.
        </Empty>
      ) : (
        <ul class="setting-list">
          {res.data.cards.map((card) => (
            <li key={card.id} class="setting-row" data-card-id={card.id}>
              <span class="setting-emoji" aria-hidden="true">
                {card.emoji ?? '▫️'}
              </span>
              <div class="setting-text">
                <span class="setting-label">{card.label}</span>
                {card.description && (
                  <span class="setting-description" title={card.description}>
                    {card.description}
                  </span>
                )}
                {problem?.id === card.id && (
                  <span class="setting-error" role="alert">
                    {problem.message}
                  </span>
                )}
              </div>
              <Switch
                checked={card.enabled}
                label={`Show ${card.label}`}
                disabled={busy[card.id]}
                onChange={(next) => void toggle(card, next)}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
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
