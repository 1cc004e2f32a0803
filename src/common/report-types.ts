/**
 * What the server says of an uploaded report (`GET /api/reports`, docs/API.md "Reports"), typed
 * once for the server, which builds it (src/reports/reports-service.ts), and the web app, which
 * lists it. No Node imports.
 */

/** The states of an uploaded report. */
export const REPORT_STATUSES = ['processing', 'needs checking', 'ready', 'raw', 'rejected'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** One report as `GET /api/reports` lists it. */
export interface ReportSummary {
  name: string;
  title: string;
  status: ReportStatus;
  sourceFile: string;
  sourceFormat: string | null;
  ingestedAt: string;
  documentDate: string | null;
  bullets: string[];
  /** Why it is raw or rejected. */
  reason: string | null;
  notes: string | null;
  /** True while OCR text waits for a person to confirm it. */
  needsVerify: boolean;
  ocrAttempts: number;
  ocrPsm: number | null;
  /** Whether the original is still kept (not after a rejection of the file itself). */
  hasOriginal: boolean;
}
