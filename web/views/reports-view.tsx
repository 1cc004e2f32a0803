/**
 * Reports (`/reports`): cards with `meta.reports.enabled`: adherence
 * reports, schedule timelines and tables, drawn for today.
 */
import { today } from '../lib/dates.js';
import { CardGrid, EmptyView } from './card-grid.js';

export function ReportsView() {
  return (
    <section class="view view-reports" aria-labelledby="view-title">
      <h1 class="view-title" id="view-title">
        Reports
      </h1>
      <CardGrid
        view="reports"
        date={today()}
        live
        empty={<EmptyView emoji="📋" title="No reports yet" flag="meta.reports.enabled" />}
      />
    </section>
  );
}
