/**
 * Which component draws a card: `meta.<view>.component` names a renderer.
 * Each renderer lives in its own file in this folder and is added to `renderers` below; a name
 * with no renderer gets the UnknownRenderer placeholder, never a blank page. Older names render
 * as their newer equivalents (`aliases`).
 */
import type { ComponentType } from 'preact';
import type { ViewCard, ViewName } from '../lib/types.js';
import { AdherenceReport } from './adherence-report.js';
import { ChecklistCard } from './checklist-card.js';
import { CombinationCard } from './combination-card.js';
import { DayMarker } from './day-marker.js';
import { GenericCard } from './generic-card.js';
import { GreetingBanner } from './greeting-banner.js';
import { LineChart } from './line-chart.js';
import { ListCard } from './list-card.js';
import { MarkdownDoc } from './markdown-doc.js';
import { ScheduleCard } from './schedule-card.js';
import { ScheduleTimeline } from './schedule-timeline.js';
import { TableList } from './table-list.js';
import { WelcomeCard } from './welcome-card.js';

/** What every renderer is given. */
export interface RendererProps {
  card: ViewCard;
  /** The view the card is drawn on. */
  view: ViewName;
  /** The calendar date shown (`YYYY-MM-DD`, the person's day). */
  date: string;
  /** True on the live Today page, false when scrubbed to another day. */
  live: boolean;
}

export type Renderer = ComponentType<RendererProps>;

/** Renderers by component name. Filled in as they are written (docs/MANIFEST-SCHEMA.md lists them). */
const renderers: Record<string, Renderer> = {
  'generic-card': GenericCard,
  'schedule-card': ScheduleCard,
  'list-card': ListCard,
  'checklist-card': ChecklistCard,
  'day-marker': DayMarker,
  'markdown-doc': MarkdownDoc,
  'line-chart': LineChart,
  'table-list': TableList,
  'adherence-report': AdherenceReport,
  'schedule-timeline': ScheduleTimeline,
  'greeting-banner': GreetingBanner,
  'combination-card': CombinationCard,
  'welcome-card': WelcomeCard,
};

/** Older component names and the renderer that now draws them. */
const aliases: Record<string, string> = {
  'metric-card': 'generic-card',
  'area-chart': 'line-chart',
  'bar-chart': 'line-chart',
};

/** The renderer for `component`, or null when this version has none. */
export function rendererFor(component: string): Renderer | null {
  const name = Object.hasOwn(aliases, component) ? aliases[component] : component;
  return Object.hasOwn(renderers, name) ? renderers[name] : null;
}
