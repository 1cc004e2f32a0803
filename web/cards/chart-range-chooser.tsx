/**
 * The range chooser of Trends: 7 days, 30 days, 90 days, a year or everything, for every chart
 * on the page (chart-range.ts keeps the choice). A row of radio buttons, each a 44 px target,
 * that fits a 390 px phone.
 */
import { CHART_RANGES, chartRange, setChartRange } from './chart-range.js';
import '../styles/cards/chart-range.css';

export function ChartRangeChooser() {
  const current = chartRange.value;
  return (
    <fieldset class="range-chooser">
      <legend class="visually-hidden">Show</legend>
      {CHART_RANGES.map((r) => (
        <label key={r.label} class="range-option" title={r.long}>
          <input
            type="radio"
            name="chart-range"
            value={r.value === null ? 'all' : String(r.value)}
            checked={current === r.value}
            onChange={() => setChartRange(r.value)}
            aria-label={r.long}
          />
          {r.label}
        </label>
      ))}
    </fieldset>
  );
}
