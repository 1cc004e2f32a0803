/**
 * Settings › Data: download everything (`GET /api/export`), import an archive (upload → preview
 * per card with row counts → choose → the choice checked by the server (`POST /api/import/check`)
 * → only then REPLACE when the home holds data → applied in the background, polled → Roll back), an Apple Health export (apple-health-upload.tsx), the
 * snapshots with Restore, and the doctor's summary page.
 * The choice replaces, it never merges: the cards ticked become the home's cards (none ticked:
 * the home's cards stay as they are).
 */
import { useEffect, useState } from 'preact/hooks';
import { ErrorNote } from '../components/status.js';
import { ApiError, api } from '../lib/api.js';
import { useResource } from '../lib/use-resource.js';
import { AppleHealthUpload } from './apple-health-upload.js';
import { importProblemText } from './import-problem.js';
import '../styles/data.css';

interface PreviewCard {
  id: string;
  label: string;
  emoji?: string;
  rows: number;
}

interface JobStatus {
  state: 'idle' | 'staged' | 'applying' | 'done' | 'failed';
  kind?: 'import' | 'restore' | 'rollback';
  stage?: string;
  snapshot?: string;
  error?: { code: string; message: string };
  recovered?: string;
  summary?: {
    cards: PreviewCard[];
    samples: { samples: number; pushes: number };
    conversations: { conversations: number; messages: number };
    reports: number;
  };
  target?: { populated: boolean; cards: { id: string; label: string }[] };
  nonce?: string;
}

interface Snapshot {
  name: string;
  kind: string;
  takenAt: string;
  cards: number;
  rows: number;
  bytes: number;
  /** What is wrong with a snapshot whose files were damaged (it cannot be restored). */
  damaged?: string;
}

const message = (e: unknown) => (e instanceof ApiError ? importProblemText(e.code, e.message) : String(e));

/** Uploads the file as the raw body. @throws ApiError. */
async function upload(file: File): Promise<void> {
  const res = await fetch('/api/import/upload', {
    method: 'POST',
    body: file,
    headers: { 'content-type': 'application/zip' },
    credentials: 'same-origin',
  });
  if (!res.ok) {
    const e = (await res.json().catch(() => ({}))) as { error?: string; code?: string };
    throw new ApiError(e.error ?? `${res.status}`, res.status, e.code ?? 'HTTP_ERROR');
  }
}

export function DataSettings() {
  const [job, setJob] = useState<JobStatus | null>(null);
  const [nonce, setNonce] = useState<string | null>(null);
  const [picked, setPicked] = useState<Record<string, boolean>>({});
  const [sections, setSections] = useState({ samples: true, conversations: true, reports: true });
  const [word, setWord] = useState('');
  /** The choice the server found importable; the confirm step shows only while it is set. */
  const [checked, setChecked] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [snapVersion, setSnapVersion] = useState(0);
  const snaps = useResource(
    (signal) => api<{ snapshots: Snapshot[] }>('/api/backups', { signal }),
    [snapVersion],
  );

  useEffect(() => {
    void api<JobStatus>('/api/import/status').then((s) => {
      if (s.state !== 'staged') setJob(s);
    });
  }, []);

  // while a job applies, poll its status
  useEffect(() => {
    if (job?.state !== 'applying') return;
    const t = setInterval(async () => {
      try {
        const s = await api<JobStatus>('/api/import/status');
        if (s.state !== 'applying') {
          setJob(s);
          setSnapVersion((v) => v + 1);
        }
      } catch {
        // the server may be busy; poll again
      }
    }, 500);
    return () => clearInterval(t);
  }, [job?.state]);

  // the buttons are aria-disabled while busy (a focused button that is disabled drops the focus
  // to the page, and a refusal must leave it on the button pressed): presses are ignored here
  const run = async (fn: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    try {
      await fn();
    } catch (e) {
      setProblem(message(e));
    } finally {
      setBusy(false);
    }
  };

  const onFile = (file: File | undefined) =>
    file &&
    run(async () => {
      await upload(file);
      const s = await api<JobStatus>('/api/import/start', { method: 'POST' });
      setJob(s);
      setNonce(s.nonce ?? null);
      setPicked(Object.fromEntries((s.summary?.cards ?? []).map((c) => [c.id, true])));
      setSections({ samples: true, conversations: true, reports: true });
      setChecked(false);
      setWord('');
    });

  const selection = () => ({
    cards: Object.entries(picked)
      .filter(([, on]) => on)
      .map(([id]) => id),
    ...sections,
  });

  /** Another choice must be checked again before anyone is asked to confirm it. */
  const choose = (next: () => void) => {
    next();
    setChecked(false);
    setWord('');
  };

  const check = () =>
    run(async () => {
      await api('/api/import/check', { json: { selection: selection() } });
      setChecked(true);
    });

  const apply = () =>
    run(async () => {
      const s = await api<JobStatus>('/api/import/apply', {
        json: { nonce, confirm: word || undefined, selection: selection() },
      });
      setNonce(null);
      setChecked(false);
      setJob(s);
    });

  const restore = (name: string) =>
    run(async () => {
      const typed = window.prompt(
        `Replace everything in this home with the snapshot ${name}? Type REPLACE to go on.`,
      );
      if (typed === null) return;
      setJob(
        await api<JobStatus>(`/api/backups/${encodeURIComponent(name)}/restore`, {
          json: { confirm: typed },
        }),
      );
    });

  const staged = job?.state === 'staged' && job.summary;
  const populated = job?.target?.populated ?? false;
  return (
    <section class="panel data-panel" id="data" aria-labelledby="settings-data">
      <h2 id="settings-data" class="panel-title">
        Data
      </h2>
      <p class="panel-hint">
        Your data is yours: take it with you, bring it back, or print a summary for a doctor.
      </p>
      <div class="data-actions">
        <a class="button" href="/api/export" download>
          Download everything (zip)
        </a>
        <a class="button" href="/summary">
          Summary for a doctor
        </a>
        <label class="button data-file">
          Import an archive…
          <input
            type="file"
            accept=".zip,application/zip"
            aria-disabled={busy || job?.state === 'applying' ? 'true' : undefined}
            onClick={(e) => {
              if (busy || job?.state === 'applying') e.preventDefault();
            }}
            onChange={(e) => {
              if (job?.state !== 'applying') void onFile((e.currentTarget as HTMLInputElement).files?.[0]);
            }}
          />
        </label>
      </div>
      {problem && <ErrorNote error={new Error(problem)} />}
      {staged && (
        <fieldset class="data-preview" aria-label="What the archive holds">
          <h3>What to import</h3>
          <p class="panel-hint">
            The cards you tick replace all the cards of this home; nothing is merged. Tick none to keep this
            home's cards as they are.
          </p>
          <ul class="data-cards">
            {staged.cards.map((c) => (
              <li key={c.id}>
                <label>
                  <input
                    type="checkbox"
                    checked={picked[c.id] ?? false}
                    onChange={(e) => {
                      const on = (e.currentTarget as HTMLInputElement).checked;
                      choose(() => setPicked({ ...picked, [c.id]: on }));
                    }}
                  />
                  {c.emoji ? `${c.emoji} ` : ''}
                  {c.label}{' '}
                  <span class="data-rows">{c.rows === 1 ? '1 row' : `${c.rows.toLocaleString()} rows`}</span>
                </label>
              </li>
            ))}
          </ul>
          <ul class="data-cards">
            {(
              [
                ['samples', `Health samples: ${staged.samples.samples.toLocaleString()}`],
                ['conversations', `Conversations: ${staged.conversations.conversations}`],
                ['reports', `Reports: ${staged.reports}`],
              ] as const
            ).map(([k, text]) => (
              <li key={k}>
                <label>
                  <input
                    type="checkbox"
                    checked={sections[k]}
                    onChange={(e) => {
                      const on = (e.currentTarget as HTMLInputElement).checked;
                      choose(() => setSections({ ...sections, [k]: on }));
                    }}
                  />
                  {text}
                </label>
              </li>
            ))}
          </ul>
          {checked && populated && (
            <label class="data-replace">
              This home holds data ({job?.target?.cards.length} cards). Type REPLACE to replace it:{' '}
              <input value={word} onInput={(e) => setWord((e.currentTarget as HTMLInputElement).value)} />
            </label>
          )}
          <div class="data-actions">
            {checked ? (
              <button
                type="button"
                class="button button-danger"
                disabled={populated && word !== 'REPLACE'}
                aria-disabled={busy ? 'true' : undefined}
                onClick={apply}
              >
                Import
              </button>
            ) : (
              <button type="button" class="button" aria-disabled={busy ? 'true' : undefined} onClick={check}>
                Continue
              </button>
            )}
            <button
              type="button"
              class="button button-quiet"
              aria-disabled={busy ? 'true' : undefined}
              onClick={() =>
                run(async () => {
                  await api('/api/import/abort', { method: 'POST' });
                  setJob(null);
                })
              }
            >
              Cancel
            </button>
          </div>
        </fieldset>
      )}
      {job?.state === 'applying' && (
        <p class="data-status" role="status">
          {job.kind === 'rollback' ? 'Rolling back' : job.kind === 'restore' ? 'Restoring' : 'Importing'}… (
          {job.stage})
        </p>
      )}
      {job?.state === 'done' && (
        <div class="data-status" role="status">
          {job.kind === 'rollback' ? 'Rolled back.' : job.kind === 'restore' ? 'Restored.' : 'Imported.'}{' '}
          {job.snapshot && job.kind !== 'rollback' && (
            <button
              type="button"
              class="button"
              aria-disabled={busy ? 'true' : undefined}
              onClick={() =>
                run(async () => setJob(await api<JobStatus>('/api/import/rollback', { method: 'POST' })))
              }
            >
              Roll back
            </button>
          )}
        </div>
      )}
      {job?.state === 'failed' && (
        <ErrorNote
          error={
            new Error(
              `The ${job.kind ?? 'import'} did not complete: ${importProblemText(job.error?.code, job.error?.message ?? '')}`,
            )
          }
        />
      )}
      <AppleHealthUpload />
      <h3>Snapshots</h3>
      <p class="panel-hint">Taken every day (7 days and 4 weeks are kept) and before every import.</p>
      <ul class="data-snapshots">
        {(snaps.data?.snapshots ?? []).map((s) => (
          <li key={s.name}>
            <span>
              {new Date(s.takenAt).toLocaleString()} · {s.kind} ·{' '}
              {s.damaged ? (
                <strong>damaged, cannot be restored: {s.damaged}</strong>
              ) : (
                `${s.cards} cards, ${s.rows.toLocaleString()} rows`
              )}
            </span>
            <button
              type="button"
              class="button button-quiet"
              disabled={s.damaged !== undefined}
              aria-disabled={busy || job?.state === 'applying' ? 'true' : undefined}
              onClick={() => {
                if (job?.state !== 'applying') void restore(s.name);
              }}
            >
              Restore
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        class="button"
        aria-disabled={busy ? 'true' : undefined}
        onClick={() =>
          run(async () => {
            await api('/api/backups', { method: 'POST' });
            setSnapVersion((v) => v + 1);
          })
        }
      >
        Take a snapshot now
      </button>
    </section>
  );
}
