/**
 * Reports (`/reports`): the uploaded documents (upload, state, check, re-read, delete), then the
 * cards with `meta.reports.enabled`: adherence reports, schedule timelines and tables, drawn for today.
 */
import { today } from '../lib/dates.js';
import { CardGrid, EmptyView } from './card-grid.js';
import { UploadedReports } from './uploaded-reports.js';

export function ReportsView() {
  return (
    <section class="view view-reports" aria-labelledby="view-title">
      <h1 class="view-title" id="view-title">
        Reports
      </h1>
      <UploadedReports />
      <CardGrid
        view="reports"
        date={today()}
        live
        empty={
          <EmptyView emoji="📋" title="No reports yet">
            How well you kept to a medicine schedule, and tables of your entries, appear here. Ask the chat,
            for example “show how often I took my vitamin D this month”.
          </EmptyView>
        }
      />
    </section>
  );
}
