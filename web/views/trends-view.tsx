/**
 * Trends (`/trends`): cards with `meta.trends.enabled`, usually line charts,
 * drawn for today, with a range chooser (7/30/90 days, a year, all) that every chart follows.
 */
import { ChartRangeChooser } from '../cards/chart-range-chooser.js';
import { today } from '../lib/dates.js';
import { CardGrid, EmptyView } from './card-grid.js';

export function TrendsView() {
  return (
    <section class="view view-trends" aria-labelledby="view-title">
      <h1 class="view-title" id="view-title">
        Trends
      </h1>
      <ChartRangeChooser />
      <CardGrid
        view="trends"
        date={today()}
        live
        empty={
          <EmptyView emoji="📈" title="No trends yet">
            Cards you track over time draw their charts here. Add one in Settings › Cards, or ask the chat,
            for example “chart my weight”.
          </EmptyView>
        }
      />
    </section>
  );
}
