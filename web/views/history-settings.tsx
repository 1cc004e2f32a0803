/**
 * Settings › History: the newest change sets (`GET /api/changes`), who made them and what they
 * did, each with Undo (`POST /api/changes/:id/undo`). A refused undo (changed again since) shows
 * the server's sentence.
 */
import { useState } from 'preact/hooks';
import { lookupTable } from '../../src/common/lookup-table.js';
import { ErrorNote, Loading } from '../components/status.js';
import { ApiError, api } from '../lib/api.js';
import { cardsVersion } from '../lib/live.js';
import { useResource } from '../lib/use-resource.js';

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
  const undo = async (id: number) => {
    setMessage(null);
    try {
      await api(`/api/changes/${id}/undo`, { method: 'POST' });
      res.reload();
    } catch (err) {
      setMessage(err instanceof ApiError ? err.message : 'The undo did not reach Klebb.');
    }
  };
  return (
    <section class="panel" aria-labelledby="settings-history">
      <h2 id="settings-history" class="panel-title">
        History
      </h2>
      {message && <p role="alert">{message}</p>}
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
                {new Date(c.ts).toLocaleString()}
              </small>{' '}
              {c.undoneBy === null ? (
                <button type="button" class="chat-link-btn" onClick={() => void undo(c.id)}>
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
