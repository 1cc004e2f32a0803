/**
 * Settings › History: the newest change sets (`GET /api/changes`), who made them and what they
 * did, each with Undo (`POST /api/changes/:id/undo`). A refused undo (changed again since) shows
 * the server's sentence.
 *
 * For a keyboard and a screen reader: each Undo is named by the change it undoes (a list of
 * buttons all called "Undo" cannot be told apart; a summary that repeats adds the change's time), a done undo is announced ("Undone: …"), and
 * since the undo takes its button away, the focus goes to that announcement instead of falling to
 * the top of the page. One undo at a time: a second press while one is under way does nothing
 * (it was refused as already undone, and shown as a failure).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { lookupTable } from '../../src/common/lookup-table.js';
import { ErrorNote, Loading } from '../components/status.js';
import { ApiError, api } from '../lib/api.js';
import { useInFlight } from '../lib/in-flight.js';
import { cardsVersion } from '../lib/live.js';
import { useResource } from '../lib/use-resource.js';
import { undoNames } from './undo-names.js';

interface ChangeSetItem {
  id: number;
  ts: string;
  actor: string;
  actorKind: string;
  summary: string;
  undoOf: number | null;
  undoneBy: number | null;
}

/** Actor kinds whose summary already names who made the change ("Health Auto Export added …"). */
const NAMED_IN_SUMMARY = new Set(['hae', 'import']);

const WHO = lookupTable<string>({
  web: 'you, in the app',
  chat: 'the chat',
  token: 'an agent token',
  'agent-token': 'the agent token',
  mcp: 'an assistant (MCP)',
  hae: 'Health Auto Export',
  import: 'an Apple Health import',
  file: 'a file edited by hand',
  local: 'this machine',
  system: 'Klebb',
});

/** The History panel of Settings. */
export function HistorySettings() {
  const res = useResource(
    (signal) => api<{ changeSets: ChangeSetItem[] }>('/api/changes?limit=20', { signal }),
    [cardsVersion.value],
  );
  const [message, setMessage] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const doneRef = useRef<HTMLParagraphElement>(null);
  const inFlight = useInFlight<number>();
  const time = (iso: string) => new Date(iso).toLocaleString();
  // a summary that repeats is told apart by its time (see undo-names.ts)
  const names = undoNames(res.data?.changeSets ?? [], time);
  const undo = (c: ChangeSetItem, name: string) =>
    inFlight.run(c.id, async () => {
      setMessage(null);
      setDone(null);
      try {
        await api(`/api/changes/${c.id}/undo`, { method: 'POST' });
        setDone(`Undone: ${name}`);
        res.reload();
      } catch (err) {
        setMessage(err instanceof ApiError ? err.message : 'The undo did not reach Klebb.');
      }
    });
  // the pressed button is gone once the list shows the undo: the focus goes to what was done
  useEffect(() => {
    const at = document.activeElement;
    if (done === null || (at !== null && at !== document.body && at.isConnected)) return;
    doneRef.current?.focus();
  }, [done, res.data]);
  return (
    <section class="panel" aria-labelledby="settings-history">
      <h2 id="settings-history" class="panel-title">
        History
      </h2>
      {message && <p role="alert">{message}</p>}
      <p role="status" ref={doneRef} tabIndex={-1} class={done ? undefined : 'visually-hidden'}>
        {done}
      </p>
      {res.error ? (
        <ErrorNote error={res.error} />
      ) : !res.data ? (
        <Loading />
      ) : (
        <ul class="history-list">
          {res.data.changeSets.map((c) => (
            <li key={c.id} data-change-set={c.id}>
              <span>{c.summary}</span>{' '}
              <small>
                {NAMED_IN_SUMMARY.has(c.actorKind) ? '' : `by ${WHO[c.actorKind] ?? c.actor}, `}
                {time(c.ts)}
              </small>{' '}
              {c.undoneBy === null ? (
                <button
                  type="button"
                  class="chat-link-btn"
                  aria-label={`Undo ${names.get(c.id) ?? c.summary}`}
                  // while an undo runs: aria-disabled, not disabled, which would drop the focus of the
                  // button pressed to the page (a refused undo left the person at the top)
                  aria-disabled={inFlight.busy !== null ? 'true' : undefined}
                  onClick={() => {
                    if (inFlight.busy === null) void undo(c, names.get(c.id) ?? c.summary);
                  }}
                >
                  Undo
                </button>
              ) : (
                <small>(undone)</small>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
