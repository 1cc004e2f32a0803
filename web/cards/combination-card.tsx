/**
 * `combination-card` (docs/MANIFEST-SCHEMA.md "Combination cards"): values of other cards shown
 * together, as a `stack` (a headline, secondary lines, annotation chips) or as `rings` (one ring
 * per `ring-segment`, filled towards its `goalDaily`). The resolution rules and per-source states
 * live in src/common/combination.ts; this file only fetches and draws.
 *
 * Sources are read with `useCardData`, so the card re-resolves whenever a source's data changes
 * (a form, the agent, a Health Auto Export push) without a reload. Which cards exist, and their
 * meta, come from `GET /api/manifests` (every card, including the switched-off ones a combination
 * usually absorbs), re-read when the live feed reports a card change; a source that does not
 * exist is never requested, so it shows as "not found" instead of a failed request.
 */
import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import {
  type CombinationSource,
  combinationSourceIds,
  type ResolvedCombine,
  resolveCombination,
} from '../../src/common/combination.js';
import { numberText } from '../../src/common/numbers.js';
import { api } from '../lib/api.js';
import { cardDataSignal } from '../lib/card-data.js';
import { dayMonth } from '../lib/dates.js';
import { num, weekStart } from '../lib/format.js';
import { cardsVersion } from '../lib/live.js';
import type { CardMeta } from '../lib/types.js';
import { CHART_PALETTE } from './line-chart.js';
import type { RendererProps } from './registry.js';
import { RendererNote } from './renderer-note.js';
import '../styles/cards/combination-card.css';

interface CardIndex {
  version: number;
  metas: Map<string, CardMeta>;
}

/** Every card's meta by id, tagged with the `cardsVersion` it was read at. */
const cardIndex = signal<CardIndex | null>(null);
let indexLoading: number | null = null;

function loadIndex(version: number): void {
  if (indexLoading === version || cardIndex.value?.version === version) return;
  indexLoading = version;
  api<{ entries: { id: string; meta: CardMeta }[] }>('/api/manifests').then(
    (body) => {
      const metas = new Map<string, CardMeta>();
      for (const e of body.entries ?? []) if (e && typeof e.id === 'string') metas.set(e.id, e.meta);
      if (indexLoading === version) indexLoading = null;
      cardIndex.value = { version, metas };
    },
    () => {
      if (indexLoading === version) indexLoading = null;
      // keep the previous index; the next card change tries again
      cardIndex.value ??= { version, metas: new Map() };
    },
  );
}

/**
 * The value of an entry as shown: its resolved text (an emoji from the entry's map, ✅/❌), with
 * plain numbers grouped for reading (8,123).
 */
function shown(e: ResolvedCombine): string {
  return typeof e.value === 'number' && e.text === numberText(e.value) ? num(e.value) : e.text;
}

const STATE_TEXT: Record<Exclude<ResolvedCombine['state'], 'ok'>, (e: ResolvedCombine) => string> = {
  'no-source': (e) => (e.sourceId ? `No card “${e.sourceId}”` : 'No source card named'),
  'no-entry': () => 'No entry',
  'no-accessor-match': (e) =>
    e.accessor ? `No “${e.accessor}” in the entry` : 'Nothing to show in the entry',
  'no-goal': () => 'Needs a daily goal',
};

function stateText(e: ResolvedCombine): string {
  return e.state === 'ok' ? '' : STATE_TEXT[e.state](e);
}

function colourOf(e: ResolvedCombine, i: number): string {
  return e.colour ?? CHART_PALETTE[i % CHART_PALETTE.length];
}

function Age({ e, date }: { e: ResolvedCombine; date: string }) {
  if (e.state !== 'ok' || !e.date || e.date === date) return null;
  return <span class="combo-age"> · {dayMonth(e.date)}</span>;
}

function Primary({ e, date }: { e: ResolvedCombine; date: string }) {
  return (
    <div class="combo-primary" data-role="primary" data-state={e.state} data-source={e.sourceId}>
      <span class="combo-label">{e.label}</span>
      {e.state === 'ok' ? (
        <span class="combo-headline">
          <span class="combo-value">{shown(e)}</span>
          {e.unit && <span class="combo-unit"> {e.unit}</span>}
          <Age e={e} date={date} />
        </span>
      ) : (
        <span class="combo-headline combo-missing">
          <span class="combo-value">—</span> <span class="combo-state">{stateText(e)}</span>
        </span>
      )}
    </div>
  );
}

function Line({ e, date }: { e: ResolvedCombine; date: string }) {
  return (
    <li class="combo-line" data-role={e.role} data-state={e.state} data-source={e.sourceId}>
      <span class="combo-label">{e.label}</span>
      {e.state === 'ok' ? (
        <span class="combo-line-value">
          {shown(e)}
          {e.unit && <span class="combo-unit"> {e.unit}</span>}
          <Age e={e} date={date} />
        </span>
      ) : (
        <span class="combo-state">{stateText(e)}</span>
      )}
    </li>
  );
}

function Chip({ e }: { e: ResolvedCombine }) {
  return (
    <li
      class={`combo-chip${e.state === 'ok' ? '' : ' combo-chip-missing'}`}
      data-role="annotation"
      data-state={e.state}
      data-source={e.sourceId}
    >
      {e.label}
      {e.state === 'ok' ? (
        <strong>
          {' '}
          {shown(e)}
          {e.unit ? ` ${e.unit}` : ''}
        </strong>
      ) : (
        <span class="combo-state"> —</span>
      )}
    </li>
  );
}

function Bar({ e, i }: { e: ResolvedCombine; i: number }) {
  const pct = e.state === 'ok' && e.ratio !== undefined ? Math.round(e.ratio * 100) : null;
  return (
    <li
      class="combo-bar"
      data-role="ring-segment"
      data-state={e.state}
      data-source={e.sourceId}
      data-complete={e.complete ? 'true' : 'false'}
    >
      <div class="combo-bar-text">
        <span class="combo-label">{e.label}</span>
        <span class="combo-line-value">
          {e.state === 'ok' ? (
            <>
              {shown(e)} / {num(e.goalDaily ?? 0)}
              {e.unit && <span class="combo-unit"> {e.unit}</span>}
              {e.period === 'week' && <span class="combo-per"> a week</span>}
            </>
          ) : (
            <span class="combo-state">{stateText(e)}</span>
          )}
        </span>
      </div>
      <div
        class="combo-bar-track"
        role="progressbar"
        aria-label={e.label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct === null ? undefined : Math.min(pct, 100)}
        aria-valuetext={pct === null ? stateText(e) : `${pct}%`}
      >
        <div
          class="combo-bar-fill"
          style={{ width: `${(e.fill ?? 0) * 100}%`, backgroundColor: colourOf(e, i) }}
        />
      </div>
    </li>
  );
}

const RING_SIZE = 120;
const RING_WIDTH = 11;
const RING_GAP = 3;

function Rings({ rings }: { rings: ResolvedCombine[] }) {
  const shownRings = rings.slice(0, 4);
  return (
    <div class="combo-rings">
      <svg
        class="combo-rings-art"
        viewBox={`0 0 ${RING_SIZE} ${RING_SIZE}`}
        width={RING_SIZE}
        height={RING_SIZE}
        role="img"
        aria-label={shownRings
          .map(
            (e) => `${e.label}: ${e.state === 'ok' ? `${Math.round((e.ratio ?? 0) * 100)}%` : stateText(e)}`,
          )
          .join(', ')}
      >
        {shownRings.map((e, i) => {
          const r = RING_SIZE / 2 - RING_WIDTH / 2 - i * (RING_WIDTH + RING_GAP);
          const c = 2 * Math.PI * r;
          const fill = e.state === 'ok' ? (e.fill ?? 0) : 0;
          return (
            <g key={e.index} data-source={e.sourceId}>
              <circle
                class="combo-ring-track"
                cx={RING_SIZE / 2}
                cy={RING_SIZE / 2}
                r={r}
                fill="none"
                stroke-width={RING_WIDTH}
              />
              {fill > 0 && (
                <circle
                  class="combo-ring-fill"
                  cx={RING_SIZE / 2}
                  cy={RING_SIZE / 2}
                  r={r}
                  fill="none"
                  stroke={colourOf(e, i)}
                  stroke-width={RING_WIDTH}
                  stroke-linecap="round"
                  stroke-dasharray={`${c * fill} ${c}`}
                  transform={`rotate(-90 ${RING_SIZE / 2} ${RING_SIZE / 2})`}
                />
              )}
            </g>
          );
        })}
      </svg>
      <ul class="combo-ring-legend">
        {rings.map((e, i) => (
          <li
            key={e.index}
            data-role="ring-segment"
            data-state={e.state}
            data-source={e.sourceId}
            data-complete={e.complete ? 'true' : 'false'}
          >
            <span class="combo-swatch" aria-hidden="true" style={{ backgroundColor: colourOf(e, i) }} />
            <span class="combo-ring-text">
              <span class="combo-label">{e.label}</span>
              {e.state === 'ok' ? (
                <span class="combo-line-value">
                  {shown(e)} / {num(e.goalDaily ?? 0)}
                  {e.unit && <span class="combo-unit"> {e.unit}</span>}
                  {e.period === 'week' && <span class="combo-per"> a week</span>}
                  <span class="combo-pct"> · {Math.round((e.ratio ?? 0) * 100)}%</span>
                  {e.complete && <span class="combo-done"> ✓</span>}
                </span>
              ) : (
                <span class="combo-state">{stateText(e)}</span>
              )}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function CombinationCard({ card, date }: RendererProps) {
  const version = cardsVersion.value;
  useEffect(() => loadIndex(version), [version]);
  const index = cardIndex.value;
  const ids = combinationSourceIds(card.viewConfig);
  if (ids.length === 0 && !Array.isArray(card.viewConfig.combines)) {
    return (
      <RendererNote tone="problem">
        This card does not name the cards it combines yet: ask the chat to set it up.
      </RendererNote>
    );
  }
  if (!index) return <RendererNote>Loading…</RendererNote>;

  // read every existing source's data (signals: this component re-renders when any changes)
  const sources = new Map<string, CombinationSource | null>();
  let loading = false;
  for (const id of ids) {
    const meta = index.metas.get(id);
    if (!meta) continue;
    const s = cardDataSignal(id).value;
    if (s.data === undefined && s.loading) loading = true;
    sources.set(id, s.data === undefined ? null : { meta, data: s.data });
  }
  if (loading) return <RendererNote>Loading…</RendererNote>;
  const resolved = resolveCombination(card.viewConfig, (id) => sources.get(id) ?? undefined, {
    date,
    weekStartsOn: weekStart(),
  });
  // a source whose data failed to load still exists: read as empty rather than "not found"
  for (const e of resolved.entries) {
    if (e.state === 'no-source' && sources.has(e.sourceId)) e.state = 'no-entry';
  }

  const primaries = resolved.entries.filter((e) => e.role === 'primary');
  const secondaries = resolved.entries.filter((e) => e.role === 'secondary');
  const annotations = resolved.entries.filter((e) => e.role === 'annotation');
  const rings = resolved.entries.filter((e) => e.role === 'ring-segment');
  const nothing = resolved.entries.length > 0 && resolved.entries.every((e) => e.state !== 'ok');

  return (
    <div class={`combo combo-layout-${resolved.layout}`} data-layout={resolved.layout}>
      {resolved.layout === 'rings' && rings.length > 0 && <Rings rings={rings} />}
      {primaries.map((e) => (
        <Primary key={e.index} e={e} date={date} />
      ))}
      {(secondaries.length > 0 || (resolved.layout === 'stack' && rings.length > 0)) && (
        <ul class="combo-lines">
          {secondaries.map((e) => (
            <Line key={e.index} e={e} date={date} />
          ))}
          {resolved.layout === 'stack' && rings.map((e, i) => <Bar key={e.index} e={e} i={i} />)}
        </ul>
      )}
      {annotations.length > 0 && (
        <ul class="combo-chips">
          {annotations.map((e) => (
            <Chip key={e.index} e={e} />
          ))}
        </ul>
      )}
      {nothing && <RendererNote>Nothing logged for this day yet.</RendererNote>}
      {resolved.entries.length === 0 && (
        <RendererNote tone="problem">None of the cards it combines can be shown.</RendererNote>
      )}
      {resolved.ignored.length > 0 && (
        <p class="combo-ignored">
          {resolved.ignored.length === 1 ? 'One source is' : `${resolved.ignored.length} sources are`} not
          shown: {resolved.ignored.map((i) => `#${i.index + 1} ${i.reason}`).join('; ')}.
        </p>
      )}
    </div>
  );
}
