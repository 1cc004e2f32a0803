/**
 * Read-only tools about the instance as a whole: read_doc,
 * read_report, get_recent_activity, hygiene_scan, note_feedback.
 */
import { Type } from '@sinclair/typebox';
import { appendFeedback, shapeFeedback } from '../../feedback/feedback-log.js';
import { hygieneScan } from '../../insights/hygiene.js';
import { recentActivity } from '../../insights/recent-activity.js';
import { readReport } from '../../reports/report-catalogue.js';
import { readDoc } from './doc-catalogue.js';
import { defineTool } from './tool.js';

export const readDocTool = defineTool({
  name: 'read_doc',
  readOnly: true,
  description: 'Read an Available doc by exact path; path#section reads one ## section.',
  parameters: Type.Object({ path: Type.String() }),
  run: ({ path }) => readDoc(path),
});

export const readReportTool = defineTool({
  name: 'read_report',
  readOnly: true,
  description: 'Read an Available report by name (without .md).',
  parameters: Type.Object({ name: Type.String() }),
  run: ({ name }, ctx) => readReport(ctx.layout.reportsDir, name),
});

export const getRecentActivity = defineTool({
  name: 'get_recent_activity',
  readOnly: true,
  description:
    'Per card: rowCount, lastEntryDate, ageDays, lastNDelta. For "how is my tracking going" and before authoring a card.',
  parameters: Type.Object({}),
  run: (_a, ctx) => recentActivity(ctx.cards, ctx.timeZone),
});

export const hygieneScanTool = defineTool({
  name: 'hygiene_scan',
  readOnly: true,
  description: 'Stale (declared cadence only), oversized and orphaned-input findings. Changes nothing.',
  parameters: Type.Object({}),
  run: (_a, ctx) => ({ findings: hygieneScan(ctx.cards, { timeZone: ctx.timeZone }) }),
});

export const noteFeedback = defineTool({
  name: 'note_feedback',
  description: 'Log an anonymised bug (kind "bug") or missing capability (kind "feature"). Never user data.',
  parameters: Type.Object({
    kind: Type.Union([Type.Literal('bug'), Type.Literal('feature')]),
    // longer input is clipped by shapeFeedback (280 / 500 / 12), not refused
    intent: Type.String({ description: 'at most 280 characters' }),
    context: Type.Optional(Type.String({ description: 'at most 500 characters' })),
    toolsConsidered: Type.Optional(Type.Array(Type.String(), { description: 'at most 12 tool names' })),
  }),
  run: (a, ctx) => {
    appendFeedback(ctx.layout.metaDir, shapeFeedback(a));
    return { ok: true };
  },
});

/** The instance-wide tools. */
export const INFO_TOOLS = [readDocTool, readReportTool, getRecentActivity, hygieneScanTool, noteFeedback];
