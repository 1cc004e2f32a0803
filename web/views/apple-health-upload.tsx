/**
 * Settings › Data › Apple Health: choose the Health app's `export.zip` (or its `export.xml`), see it
 * upload (the browser's own progress) and then be read (percent and time left, polled from
 * `GET /api/apple-health/import/progress` while the upload request waits for its answer), then
 * what was imported. Exports reach gigabytes, so both phases say how far they are.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorNote } from '../components/status.js';
import { api } from '../lib/api.js';

interface ServerProgress {
  running: boolean;
  phase: 'uploading' | 'reading' | 'filling' | 'done' | 'failed' | null;
  percent?: number;
  etaSeconds?: number | null;
  records?: number;
}

interface ImportAnswer {
  records: number;
  samples: number;
  newSamples: number;
  ingested: Record<string, number>;
  /** The file ends before its last line: cut short, most likely incomplete. */
  truncated?: boolean;
}

type Step =
  | { kind: 'idle' }
  | { kind: 'uploading'; percent: number }
  | { kind: 'reading'; progress: ServerProgress }
  | { kind: 'done'; answer: ImportAnswer }
  | { kind: 'failed'; message: string };

/** `3 min 20 s`, `45 s`, `1 h 5 min`. */
function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${s} s`;
}

/**
 * Sends the file as the raw body with XMLHttpRequest (fetch reports no upload progress).
 * `onUploaded` fires once the last byte is sent. @returns the answer, or throws its message.
 */
function send(
  file: File,
  onUpload: (percent: number) => void,
  onUploaded: () => void,
): Promise<ImportAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/apple-health/import');
    // the server tells a zip, a gzip and plain XML by their first bytes
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onUpload(Math.floor((e.loaded / e.total) * 100));
    };
    xhr.upload.onload = onUploaded;
    xhr.onload = () => {
      let body: { error?: string } & Partial<ImportAnswer> = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: the status says enough
      }
      if (xhr.status === 200) resolve(body as ImportAnswer);
      else reject(new Error(body.error ?? `The server answered ${xhr.status}.`));
    };
    xhr.onerror = () => reject(new Error('The server could not be reached.'));
    xhr.send(file);
  });
}

/** What the status line says. */
function statusText(step: Step): string {
  switch (step.kind) {
    case 'uploading':
      return `Uploading… ${step.percent} %`;
    case 'reading': {
      const p = step.progress;
      if (p.phase === 'filling') return 'Filling your cards…';
      const left = typeof p.etaSeconds === 'number' ? ` · about ${duration(p.etaSeconds)} left` : '';
      return `Reading your export… ${(p.percent ?? 0).toFixed(0)} %${left}`;
    }
    case 'done': {
      const a = step.answer;
      if (a.truncated) {
        return `The file was cut short, so it is most likely incomplete: only the part that arrived was imported (${a.records.toLocaleString()} records, ${a.newSamples.toLocaleString()} new readings). Export again from the Health app and choose the whole export.xml; readings already here are not added twice.`;
      }
      return `Imported: ${a.records.toLocaleString()} records, ${a.newSamples.toLocaleString()} new readings (${(
        a.samples - a.newSamples
      ).toLocaleString()} already here).`;
    }
    default:
      return '';
  }
}

export function AppleHealthUpload() {
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const reading = useRef(false);

  // while the server reads the file, ask how far it got every second
  useEffect(() => {
    if (step.kind !== 'reading') return;
    const t = setInterval(async () => {
      try {
        const p = await api<ServerProgress>('/api/apple-health/import/progress');
        if (reading.current && p.running) setStep({ kind: 'reading', progress: p });
      } catch {
        // busy or briefly unreachable: ask again
      }
    }, 1000);
    return () => clearInterval(t);
  }, [step.kind]);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setStep({ kind: 'uploading', percent: 0 });
    try {
      const answer = await send(
        file,
        (percent) => setStep({ kind: 'uploading', percent }),
        () => {
          reading.current = true;
          setStep({ kind: 'reading', progress: { running: true, phase: 'reading', percent: 0 } });
        },
      );
      reading.current = false;
      setStep({ kind: 'done', answer });
    } catch (e) {
      reading.current = false;
      setStep({ kind: 'failed', message: (e as Error).message });
    }
  };

  const busy = step.kind === 'uploading' || step.kind === 'reading';
  const percent =
    step.kind === 'uploading' ? step.percent : step.kind === 'reading' ? (step.progress.percent ?? 0) : 0;
  return (
    <div class="apple-health-upload">
      <h3>Apple Health</h3>
      <p class="panel-hint">
        In the Health app, tap your picture, then Export All Health Data, and choose the export.zip it makes
        (or the export.xml inside it). Readings already here are not added twice.
      </p>
      <div class="data-actions">
        <label class="button data-file">
          Import from Apple Health…
          <input
            type="file"
            accept=".zip,.xml,.gz,application/zip,application/xml,text/xml,application/gzip"
            // aria-disabled while busy, not disabled: a focused input that is disabled drops the
            // focus to the page, and a refused file must leave it here; no chooser opens meanwhile
            aria-disabled={busy ? 'true' : undefined}
            onClick={(e) => {
              if (busy) e.preventDefault();
            }}
            onChange={(e) => {
              const input = e.currentTarget as HTMLInputElement;
              if (!busy) void onFile(input.files?.[0]);
              input.value = '';
            }}
          />
        </label>
      </div>
      {busy && (
        <div class="data-status" role="status">
          <progress max={100} value={percent} aria-label={step.kind === 'uploading' ? 'Upload' : 'Import'} />{' '}
          {statusText(step)}
        </div>
      )}
      {step.kind === 'done' && (
        <p class={step.answer.truncated ? 'data-status data-status-warning' : 'data-status'} role="status">
          {statusText(step)}
        </p>
      )}
      {step.kind === 'failed' && (
        <ErrorNote error={new Error(`The import did not complete: ${step.message}`)} />
      )}
    </div>
  );
}
