/**
 * The doctor's summary of a date range (`GET /api/summary`, docs/API.md), typed once for the
 * server, which builds it (src/data/doctor-summary.ts), and the summary page, which prints it.
 * No Node imports.
 */

/** Statistics of one numeric field. */
export interface FieldStats {
  field: string;
  unit?: string;
  /**
   * `day` on a card that adds up its day (`aggregate: "sum"`): the statistics are of the days'
   * totals and `count` counts days; absent: of the readings, `count` counting readings.
   */
  per?: 'day';
  count: number;
  /** The mean, rounded to one decimal more than the most precise reading (no float tail). */
  avg: number;
  min: number;
  max: number;
}

/** One card of the summary. */
export interface CardSummary {
  id: string;
  label: string;
  emoji?: string;
  /** Columns of `rows`: date and time first, then the fields the rows have. */
  columns: { field: string; unit?: string }[];
  rows: Record<string, unknown>[];
  /** How many readings fall in the range (rows holds at most the server's SUMMARY_MAX_ROWS of them: the latest). */
  total: number;
  stats: FieldStats[];
  adherence: { name: string; scheduled: number; taken: number; rate: number | null }[];
}
