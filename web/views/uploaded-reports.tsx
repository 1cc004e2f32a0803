/**
 * The uploaded documents on Reports: an upload button, and each report with its state badge
 * (processing, needs checking, ready, raw, rejected), its bullets or the reason it was not
 * summarised, and its actions: check the OCR text against the original ("Looks right"), re-read
 * by OCR, retry, open as a page, delete. The list is re-read every few seconds while a report is
 * being read, and when the chat panel uploads one (`reportsChanged`).
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

function ReportItem({ report, refresh }: { report: UploadedReport; refresh: () => void }) {
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
              onClick={() => setChecking(!checking)}
            >
              {checking ? 'Close the check' : 'Check the text'}
            </button>
          )}
          {report.status !== 'rejected' && (
            <a class="button button-small" href={`/report/${report.name}`} target="_blank" rel="noreferrer">
              Open
            </a>
          )}
          {ocr && report.hasOriginal && (
            <button
              type="button"
              class="button button-small"
              onClick={() => act(reprocessReport(report.name, true))}
            >
              Read again
            </button>
          )}
          {(report.status === 'raw' || report.status === 'rejected') && report.hasOriginal && (
            <button
              type="button"
              class="button button-small"
              onClick={() => act(reprocessReport(report.name, false))}
            >
              Retry
            </button>
          )}
          <button
            type="button"
            class="button button-small"
            onClick={() => {
              if (confirm(`Delete "${report.title}" and its original?`)) act(deleteReport(report.name));
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
  const processing = (list?.processing.length ?? 0) > 0;
  useEffect(() => {
    if (!processing) return;
    const timer = setInterval(refresh, POLL_MS);
    return () => clearInterval(timer);
  }, [processing]);

  async function onFiles(files: FileList | null) {
    setProblem(null);
    for (const file of Array.from(files ?? [])) {
      setUploading(file.name);
      try {
        await uploadReport(file);
      } catch (e) {
        setProblem(`${file.name}: ${e instanceof ApiError ? e.message : String(e)}`);
        break;
      } finally {
        setUploading(null);
      }
    }
    if (picker.current) picker.current.value = '';
    refresh();
  }

  return (
    <section class="uploaded-reports" aria-labelledby="uploaded-reports-title">
      <div class="panel-head">
        <h2 id="uploaded-reports-title">Documents</h2>
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
        A lab result, a letter or a photo of one (PDF, PNG, JPEG, DOCX, TXT, up to 30 MB).
        {list ? ` ${list.quota.used} of ${list.quota.max} used.` : ''}
      </p>
      {problem && (
        <p class="notice" role="alert">
          {problem}
        </p>
      )}
      {list && list.reports.length > 0 && (
        <ul class="report-list">
          {list.reports.map((r) => (
            <ReportItem key={`${r.name}:${r.status}`} report={r} refresh={refresh} />
          ))}
        </ul>
      )}
    </section>
  );
}
