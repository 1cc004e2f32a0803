/** Trends (`/trends`): cards with `meta.trends.enabled`, usually line charts. */
import { today } from '../lib/dates.js';
import { CardGrid, EmptyView } from './card-grid.js';

export function TrendsView() {
  return (
    <section class="view" aria-labelledby="view-title">
      <h1 class="view-title" id="view-title">
        Trends
      </h1>
      <CardGrid
        view="trends"
        date={today()}
        live
        empty={<EmptyView emoji="📈" title="No trends yet" flag="meta.trends.enabled" />}
      />
    </section>
  );
}
