/** Shapes of the server's answers that the app reads (docs/API.md). */

/** `GET /api/instance`. */
export interface InstanceInfo {
  name: string;
  chatAgent: { name: string; emoji: string };
  demo: boolean;
  cloud: boolean;
}

/** The views `GET /api/views/:view` knows. */
export type ViewName = 'view' | 'trends' | 'calendar' | 'reports' | 'dayDetail';

/** A card's `meta` as far as the shell reads it; renderers read the rest. */
export interface CardMeta {
  id: string;
  label: string;
  emoji?: string;
  order?: number;
  enabled?: boolean;
  [key: string]: unknown;
}

/** `meta.<view>` of a card on that view. */
export interface ViewConfig {
  enabled: true;
  component: string;
  slot?: string;
  order?: number;
  [key: string]: unknown;
}

/** One entry of `GET /api/views/:view`. */
export interface ViewCard {
  id: string;
  meta: CardMeta;
  viewConfig: ViewConfig;
}

/** A problem met while loading card files. */
export interface LoadError {
  file: string;
  code: string;
  message: string;
  id?: string;
  path?: string;
}

/** `GET /api/views/:view`. */
export interface ViewResponse {
  cards: ViewCard[];
  errors: LoadError[];
}

/** One entry of `GET /api/settings/cards`. */
export interface SettingsCard {
  id: string;
  label: string;
  emoji: string | null;
  description: string | null;
  enabled: boolean;
  hasData: boolean;
}
