/**
 * The uploaded-report routes (docs/API.md "Reports"): upload a file as raw bytes with its name in
 * `X-Klebb-Filename`, list, check, re-read and delete. Shared by the Reports view and the chat
 * panel's attach button.
 */
import { signal } from '@preact/signals';
import type { ReportSummary as UploadedReport } from '../../src/common/report-types.js';
import { onSignedOut } from '../auth/session-expiry.js';
import { ApiError, api } from './api.js';

/** Bumped after every upload from this page, so an open Reports view re-reads its list. */
export const reportsChanged = signal(0);

/** The states of an uploaded report, and one report as `GET /api/reports` lists it. */
export type { ReportStatus, ReportSummary as UploadedReport } from '../../src/common/report-types.js';

/** The list with the quota. */
export interface ReportList {
  quota: { used: number; max: number; remaining: number };
  reports: UploadedReport[];
  processing: string[];
  failed: string[];
}

/** The file kinds the server reads (the file picker's `accept`). */
export const REPORT_ACCEPT = '.pdf,.png,.jpg,.jpeg,.txt,.md,.csv,.docx,application/pdf,image/png,image/jpeg';

/**
 * Uploads one file; resolves the new report's name once the server has it (reading goes on in
 * the background). @throws ApiError with the server's reason (type, size, quota).
 */
export async function uploadReport(file: File): Promise<{ filename: string; used: number; max: number }> {
  let res: Response;
  try {
    res = await fetch('/api/reports/upload', {
      method: 'POST',
      headers: {
        'x-klebb-filename': encodeURIComponent(file.name),
        'content-type': 'application/octet-stream',
        accept: 'application/json',
      },
      body: file,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError('The Klebb server cannot be reached.', 0, 'NETWORK');
  }
  const body = (await res.json().catch(() => ({}))) as {
    error?: string;
    code?: string;
    filename?: string;
    used?: number;
    max?: number;
  };
  if (!res.ok) {
    if (res.status === 401) onSignedOut();
    throw new ApiError(
      body.error ?? `${res.status} ${res.statusText}`,
      res.status,
      body.code ?? 'HTTP_ERROR',
    );
  }
  reportsChanged.value++;
  return { filename: String(body.filename), used: Number(body.used), max: Number(body.max) };
}

/** The uploaded reports and the quota. */
export const listUploadedReports = (signal?: AbortSignal) => api<ReportList>('/api/reports', { signal });

/** The text read from a report's document. */
export async function reportText(name: string): Promise<string> {
  const res = await fetch(`/api/reports/${encodeURIComponent(name)}/text`, { credentials: 'same-origin' });
  if (!res.ok) throw new ApiError('The text of this report cannot be read.', res.status, 'NO_TEXT');
  return res.text();
}

/** A person confirms the OCR text. */
export const verifyReport = (name: string) =>
  api<UploadedReport>(`/api/reports/${encodeURIComponent(name)}/verify`, { method: 'POST' });

/** Reads a report again (`rerunOcr`: with the next OCR mode). */
export const reprocessReport = (name: string, rerunOcr: boolean) =>
  api<{ accepted: boolean; psm: number | null }>(`/api/reports/${encodeURIComponent(name)}/reprocess`, {
    method: 'POST',
    json: rerunOcr ? { rerunOcr: true } : {},
  });

/** Deletes a report, its original and its text. */
export const deleteReport = (name: string) =>
  api<{ ok: boolean }>(`/api/reports/${encodeURIComponent(name)}`, { method: 'DELETE' });
