/**
 * `table-list` (docs/MANIFEST-SCHEMA.md "Reports-view config"): a card's rows as a table, with the
 * manifest's `columns` (`[{field, header, format?}]`) and `sort` (`{field, dir}`); the reading,
 * sorting and cell formats are in src/common/table-rows.ts. Long tables show their first rows
 * with a button for the rest; a table wider than a phone scrolls inside its card, never the page.
 */
import { useMemo, useState } from 'preact/hooks';
import { emojiMapFor } from '../../src/common/emoji-map.js';
import { rowsWithin } from '../../src/common/nested-rows.js';
import {
  cellText,
  isDateColumn,
  isNumericColumn,
  sortTableRows,
  tableColumns,
  tableSort,
} from '../../src/common/table-rows.js';
import { useCardData } from '../lib/card-data.js';
import type { RendererProps } from './registry.js';
import { RendererNote } from './renderer-note.js';
import '../styles/cards/table-list.css';

/** Rows shown before "Show all". */
export const TABLE_PREVIEW_ROWS = 25;

export function TableList({ card }: RendererProps) {
  const { data: stored, loading, error } = useCardData(card.id);
  const [all, setAll] = useState(false);
  // an object holding its rows (`{"findings": [...]}`, rows in categories) shows them
  const data = useMemo(() => (Array.isArray(stored) ? stored : (rowsWithin(stored) ?? stored)), [stored]);
  const columns = useMemo(() => tableColumns(card.viewConfig, data), [card.viewConfig, data]);
  const emojiMap = emojiMapFor(card.meta, card.viewConfig);
  const rows = useMemo(() => sortTableRows(data, tableSort(card.viewConfig)), [card.viewConfig, data]);
  const numeric = useMemo(() => columns.map((c) => isNumericColumn(rows, c)), [columns, rows]);
  // a column of bare calendar dates reads as dates ("29 Apr 2026"), never wrapped
  const shownColumns = useMemo(
    () => columns.map((c) => (isDateColumn(rows, c) ? { ...c, format: 'date' } : c)),
    [columns, rows],
  );

  if (data === undefined) {
    if (loading) return <RendererNote>Loading…</RendererNote>;
    return (
      <RendererNote tone="problem">
        Could not load this table{error ? `: ${error.message}` : '.'}
      </RendererNote>
    );
  }
  if (data !== null && !Array.isArray(data)) {
    return (
      <RendererNote tone="problem">
        This table needs a list of rows; this card's data is{' '}
        {typeof data === 'object' ? 'an object' : 'a single value'}.
      </RendererNote>
    );
  }
  if (rows.length === 0) return <RendererNote>No rows yet.</RendererNote>;
  if (columns.length === 0)
    return (
      <RendererNote tone="problem">
        No columns to show yet: ask the chat which values the table should list.
      </RendererNote>
    );
  const shown = all ? rows : rows.slice(0, TABLE_PREVIEW_ROWS);
  return (
    <div class="table-list" data-rows={rows.length}>
      <div class="table-list-scroll">
        <table>
          <thead>
            <tr>
              {columns.map((c, i) => (
                <th key={c.field} scope="col" class={numeric[i] ? 'is-numeric' : undefined}>
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row, r) => (
              // rows have no id of their own; their position in the sorted list is stable for a render
              <tr key={r}>
                {shownColumns.map((c, i) => (
                  <td
                    key={c.field}
                    class={numeric[i] ? 'is-numeric' : c.format === 'date' ? 'is-date' : undefined}
                  >
                    {cellText(row, c, undefined, emojiMap)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length > TABLE_PREVIEW_ROWS && (
        <button type="button" class="table-list-more" onClick={() => setAll(!all)} aria-expanded={all}>
          {all ? 'Show fewer' : `Show all ${rows.length} rows`}
        </button>
      )}
    </div>
  );
}
