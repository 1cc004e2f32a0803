/** Shapes of the server's answers that the app reads (docs/API.md). */

import type { LoadError } from '../../src/common/view-types.js';

/** `GET /api/instance`. */
export interface InstanceInfo {
  name: string;
  chatAgent: { name: string; emoji: string };
  demo: boolean;
  cloud: boolean;
}

/** The views `GET /api/views/:view` knows, and a problem met while loading card files. */
export type { LoadError, ViewName } from '../../src/common/view-types.js';

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
