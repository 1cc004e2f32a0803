/**
 * The uploaded documents on Reports: an upload button, and each report with its state badge
 * (processing, needs checking, ready, raw, rejected), its bullets or the reason it was not
 * summarised, and its actions: check the OCR text against the original ("Looks right"), re-read
 * by OCR, retry, open as a page, delete. The list is re-read every few seconds while a report is
 * being read, and when the chat panel uploads one (`reportsChanged`).
 *
 * Each report's buttons are named after it ("Delete Blood count"): a screen reader's list of
 * buttons otherwise held the same few names once per report. A deletion puts the focus on the
 * report that took the deleted one's place (else the one before, else the list's heading)
 * instead of dropping it at the top of the page.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../lib/api.js';
import {
  deleteReport,
  listUploadedReports,
  REPORT_ACCEPT,
  type ReportList,
  reportsChanged,
  reportText,
  reprocessReport,
  type UploadedReport,
  uploadReport,
  verifyReport,
} from '../lib/reports-api.js';

const POLL_MS = 2000;

const BADGES: Record<UploadedReport['status'], { label: string; tone: string }> = {
  processing: { label: 'Processing', tone: 'muted' },
  'needs checking': { label: 'Needs checking', tone: 'warn' },
  ready: { label: 'Ready', tone: 'ok' },
  raw: { label: 'Not summarised', tone: 'warn' },
  rejected: { label: 'Rejected', tone: 'danger' },
};

/** The state badge of a report. */
export function ReportBadge({ status }: { status: UploadedReport['status'] }) {
  const b = BADGES[status];
  return (
    <span class={`report-badge report-badge-${b.tone}`} data-status={status}>
      {b.label}
    </span>
  );
}

/** The compare view: the text read by OCR beside a link to the original, and "Looks right". */
function CheckText({ report, onDone }: { report: UploadedReport; onDone: () => void }) {
  const [text, setText] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    reportText(report.name).then(setText, (e: Error) => setProblem(e.message));
  }, [report.name]);
  return (
    <div class="report-check">
      <p>
        Compare the text below with the original. Numbers read wrongly? <strong>Read again</strong> tries
        another way of reading the page.
      </p>
      <a
        class="button button-small"
        href={`/api/reports/${report.name}/source`}
        target="_blank"
        rel="noreferrer"
      >
        Open the original
      </a>
      {problem && <p role="alert">{problem}</p>}
      {text === null && !problem ? <p>Loading the text…</p> : <pre class="report-text">{text}</pre>}
      <button
        type="button"
        class="button button-small button-on"
        onClick={() => verifyReport(report.name).then(onDone, (e: Error) => setProblem(e.message))}
      >
        Looks right
      </button>
    </div>
  );
}

function ReportItem({
  report,
  refresh,
  onDeleted,
}: {
  report: UploadedReport;
  refresh: () => void;
  /** Called once the report is deleted, before the list is read again. */
  onDeleted: () => void;
}) {
  const [checking, setChecking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const act = (p: Promise<unknown>) =>
    p.then(
      () => {
        setProblem(null);
        refresh();
      },
      (e: Error) => setProblem(e.message),
    );
  const ocr = report.sourceFormat?.endsWith('-ocr') ?? false;
  const busy = report.status === 'processing';
  return (
    <li class="report-item" data-report={report.name}>
      <div class="report-head">
        <ReportBadge status={report.status} />
        <h3 class="report-title">{report.title}</h3>
      </div>
      <p class="report-meta">
        {report.documentDate ? `Dated ${report.documentDate} · ` : ''}
        {report.sourceFile}
        {ocr ? ' · read by OCR' : ''}
      </p>
      {report.bullets.length > 0 && (
        <ul class="report-bullets">
          {report.bullets.map((b) => (
            <li key={b}>{b}</li>
          ))}
        </ul>
      )}
      {report.reason && (
        <p class="report-reason">
          {report.status === 'rejected' ? 'Rejected' : 'Not summarised'}: {report.reason}.
        </p>
      )}
      {report.notes && <p class="report-reason">Note: {report.notes}.</p>}
      {report.status === 'needs checking' && (
        <p class="report-reason">The assistant will not read this text until you have checked it.</p>
      )}
      {problem && (
        <p class="report-reason" role="alert">
          {problem}
        </p>
      )}
      {!busy && (
        <div class="report-actions">
          {report.status === 'needs checking' && (
            <button
              type="button"
              class="button button-small button-on"
              aria-label={
                checking ? `Close the check of ${report.title}` : `Check the text of ${report.title}`
              }
              onClick={() => setChecking(!checking)}
            >
              {checking ? 'Close the check' : 'Check the text'}
            </button>
          )}
          {report.status !== 'rejected' && (
            <a
              class="button button-small"
              href={`/report/${report.name}`}
              target="_blank"
              rel="noreferrer"
              aria-label={`Open ${report.title}`}
            >
              Open
            </a>
          )}
          {ocr && report.hasOriginal && (
            <button
              type="button"
              class="button button-small"
              aria-label={`Read ${report.title} again`}
              onClick={() => act(reprocessReport(report.name, true))}
            >
              Read again
            </button>
          )}
          {(report.status === 'raw' || report.status === 'rejected') && report.hasOriginal && (
            <button
              type="button"
              class="button button-small"
              aria-label={`Retry ${report.title}`}
              onClick={() => act(reprocessReport(report.name, false))}
            >
              Retry
            </button>
          )}
          <button
            type="button"
            class="button button-small"
            aria-label={`Delete ${report.title}`}
            onClick={() => {
              if (confirm(`Delete "${report.title}" and its original?`))
                act(deleteReport(report.name).then(onDeleted));
            }}
          >
            Delete
          </button>
        </div>
      )}
      {checking && report.status === 'needs checking' && (
        <CheckText
          report={report}
          onDone={() => {
            setChecking(false);
            refresh();
          }}
        />
      )}
    </li>
  );
}

/** The documents section of Reports. */
export function UploadedReports() {
  const [list, setList] = useState<ReportList | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [uploading, setUploading] = useState<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // the place in the list of a report just deleted, to put the focus back there
  const deletedAt = useRef<number | null>(null);
  const refresh = () => {
    listUploadedReports().then(
      (l) => {
        setList(l);
      },
      (e: Error) => setProblem(e.message),
    );
  };
  const changed = reportsChanged.value;
  useEffect(refresh, [changed]);
  useEffect(() => {
    const at = deletedAt.current;
    if (at === null || !list) return;
    deletedAt.current = null;
    const focused = document.activeElement;
    if (focused !== null && focused !== document.body && focused.isConnected) return;
    const items = listRef.current?.querySelectorAll<HTMLElement>('.report-item') ?? [];
    const next = items[Math.min(at, items.length - 1)];
    (
      next?.querySelector<HTMLElement>('.report-actions a, .report-actions button') ?? heading.current
    )?.focus();
  }, [list]);
  const processing = (list?.processing.length ?? 0) > 0;
  useEffect(() => {
    if (!processing) return;
    const timer = setInterval(refresh, POLL_MS);
    return () => clearInterval(timer);
  }, [processing]);

  // each file is tried: one refused file (a wrong type, too large) does not keep the others out,
  // and every refusal is named, so no file is silently left behind
  async function onFiles(files: FileList | null) {
    setProblem(null);
    const refused: string[] = [];
    for (const file of Array.from(files ?? [])) {
      setUploading(file.name);
      try {
        await uploadReport(file);
      } catch (e) {
        refused.push(`${file.name}: ${e instanceof ApiError ? e.message : String(e)}`);
      } finally {
        setUploading(null);
      }
    }
    if (refused.length === 1) setProblem(refused[0]);
    else if (refused.length > 1)
      setProblem(`${refused.length} files were not uploaded. ${refused.join(' ')}`);
    if (picker.current) picker.current.value = '';
    refresh();
  }

  return (
    <section class="uploaded-reports" aria-labelledby="uploaded-reports-title">
      <div class="panel-head">
        <h2 id="uploaded-reports-title" ref={heading} tabIndex={-1}>
          Documents
        </h2>
        <label class="button button-small button-on report-upload">
          {uploading ? `Uploading ${uploading}…` : 'Upload a document'}
          <input
            ref={picker}
            type="file"
            class="visually-hidden"
            accept={REPORT_ACCEPT}
            multiple
            disabled={uploading !== null}
            onChange={(e) => onFiles(e.currentTarget.files)}
          />
        </label>
      </div>
      <p class="report-hint">
        A lab result, a letter or a photo of one (PDF, PNG, JPEG, DOCX, TXT, MD, CSV, up to 30 MB).
        {list ? ` ${list.quota.used} of ${list.quota.max} used.` : ''}
      </p>
      {problem && (
        <p class="notice" role="alert">
          {problem}
        </p>
      )}
      {list && list.reports.length > 0 && (
        <ul class="report-list" ref={listRef}>
          {list.reports.map((r, i) => (
            <ReportItem
              key={`${r.name}:${r.status}`}
              report={r}
              refresh={refresh}
              onDeleted={() => {
                deletedAt.current = i;
              }}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
