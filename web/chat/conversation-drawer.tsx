/**
 * The conversation drawer: conversations by recency, search over titles and messages
 * (`POST /api/conversations/search`, the words stay out of URLs), rename and delete in place,
 * "New conversation", and the feedback form at the foot.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { MAX_CONVERSATION_TITLE_CHARS } from '../../src/common/limits.js';
import { oneLineTitle } from '../../src/common/title-text.js';
import { lengthNotice } from '../lib/char-limit.js';
import { closesOnEscape } from '../lib/input-method-keys.js';
import { CloseIcon, NewIcon, PencilIcon, SearchIcon, TrashIcon } from './chat-icons.js';
import { conversations, current } from './chat-state.js';
import type { ConversationSummary } from './chat-types.js';
import {
  deleteConversation,
  newConversation,
  openConversation,
  refreshConversations,
  renameConversation,
} from './conversation-actions.js';
import { searchConversations } from './conversation-api.js';
import { FeedbackForm } from './feedback-form.js';
import './drawer.css';

const SEARCH_DELAY_MS = 200;

/** Where the focus goes once a deleted conversation's row has left the list. */
interface FocusAfterDelete {
  deleted: string;
  /** The conversations below and above it when it was deleted. */
  next?: string;
  prev?: string;
}

/**
 * The element to focus after a deletion: the next conversation's row, else the previous one's,
 * else "New conversation" (the deleted row held the focus; without this it fell to the page).
 */
function focusTarget(list: HTMLElement | null, newButton: HTMLElement | null, f: FocusAfterDelete) {
  for (const id of [f.next, f.prev]) {
    if (!id) continue;
    const row = list?.querySelector<HTMLElement>(
      `[data-conversation-id="${CSS.escape(id)}"] .chat-conv-open`,
    );
    if (row) return row;
  }
  return newButton;
}

/** Whether the focus is nowhere in particular (the page itself, or an element no longer shown). */
function focusLost(): boolean {
  const at = document.activeElement;
  return at === null || at === document.body || !at.isConnected;
}

/** A phone: a touch screen, or a viewport as narrow as the panel's phone sheet (chat.css). */
const phoneSized = () => window.matchMedia('(pointer: coarse), (max-width: 759px)').matches;

export function ConversationDrawer({ onClose }: { onClose(): void }) {
  const [q, setQ] = useState('');
  const [found, setFound] = useState<ConversationSummary[] | null>(null);
  const [searchError, setSearchError] = useState<string | null>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  const listBox = useRef<HTMLUListElement>(null);
  const newButton = useRef<HTMLButtonElement>(null);
  const [afterDelete, setAfterDelete] = useState<FocusAfterDelete | null>(null);

  useEffect(() => {
    void refreshConversations();
    // on a phone the keyboard would cover the list the person opened to look at
    if (!phoneSized()) searchBox.current?.focus();
  }, []);

  useEffect(() => {
    const needle = q.trim();
    if (!needle) {
      setFound(null);
      setSearchError(null);
      return;
    }
    const ctl = new AbortController();
    const timer = setTimeout(() => {
      searchConversations(needle, ctl.signal).then(
        (list) => {
          setFound(list);
          setSearchError(null);
        },
        (err: Error) => {
          if (err.name !== 'AbortError') setSearchError(err.message);
        },
      );
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [q]);

  const searching = q.trim() !== '';
  const list = searching ? found : conversations.value;
  const shownId = current.value.id;

  // once the deleted row has left the list, the focus it held goes to its neighbour
  useEffect(() => {
    if (!afterDelete || list?.some((c) => c.id === afterDelete.deleted)) return;
    setAfterDelete(null);
    if (focusLost()) focusTarget(listBox.current, newButton.current, afterDelete)?.focus();
  }, [afterDelete, list]);

  return (
    <aside class="chat-drawer" aria-label="Conversations">
      <div class="chat-drawer-head">
        <h3>Conversations</h3>
        <button type="button" class="chat-icon-btn" aria-label="Close the list" onClick={onClose}>
          <CloseIcon />
        </button>
      </div>
      <div class="chat-search">
        <SearchIcon />
        <label class="visually-hidden" for="chat-search">
          Search conversations
        </label>
        {/* no maxlength: Chromium's counts UTF-16 units, which cut a query of emoji at half the
            server's limit of 500 characters; a longer query gets the server's refusal */}
        <input
          id="chat-search"
          ref={searchBox}
          type="search"
          placeholder="Search conversations"
          value={q}
          onInput={(e) => setQ(e.currentTarget.value)}
        />
      </div>
      <button
        type="button"
        class="chat-drawer-new"
        ref={newButton}
        onClick={() => {
          newConversation();
          onClose();
        }}
      >
        <NewIcon /> New conversation
      </button>
      <div class="chat-drawer-list">
        {searchError && (
          <p class="chat-error" role="alert">
            {searchError}
          </p>
        )}
        {list === null ? (
          <p class="chat-hint chat-drawer-state">{searching ? 'Searching…' : 'Loading…'}</p>
        ) : list.length === 0 ? (
          <p class="chat-hint chat-drawer-state">
            {searching ? 'No conversation mentions that.' : 'No conversations yet.'}
          </p>
        ) : (
          <ul class="chat-conversations" ref={listBox}>
            {list.map((c, i) => (
              <ConversationRow
                key={c.id}
                c={c}
                shown={c.id === shownId}
                onOpen={() => {
                  if (c.id !== shownId) void openConversation(c.id);
                  onClose();
                }}
                onRenamed={(title) => {
                  if (found) setFound(found.map((f) => (f.id === c.id ? { ...f, title } : f)));
                }}
                onDeleted={() => {
                  setAfterDelete({ deleted: c.id, next: list[i + 1]?.id, prev: list[i - 1]?.id });
                  if (found) setFound(found.filter((f) => f.id !== c.id));
                }}
              />
            ))}
          </ul>
        )}
      </div>
      <FeedbackForm />
    </aside>
  );
}

/** "14:05" today, "Tue" this week, "3 Mar" before. */
function when(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const now = new Date();
  if (d.toDateString() === now.toDateString())
    return d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  if (now.getTime() - d.getTime() < 6 * 86_400_000)
    return d.toLocaleDateString(undefined, { weekday: 'short' });
  return d.toLocaleDateString(undefined, { day: 'numeric', month: 'short' });
}

function ConversationRow({
  c,
  shown,
  onOpen,
  onRenamed,
  onDeleted,
}: {
  c: ConversationSummary;
  shown: boolean;
  onOpen(): void;
  onRenamed(title: string | null): void;
  onDeleted(): void;
}) {
  const [mode, setMode] = useState<'view' | 'rename' | 'confirm'>('view');
  const [title, setTitle] = useState(c.title ?? '');
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const name = c.title ?? 'Untitled conversation';

  // the mode the row's Rename or Delete button opened, until the row is back in view
  const opened = useRef<'rename' | 'confirm' | null>(null);
  const open = (m: 'rename' | 'confirm') => {
    opened.current = m;
    setMode(m);
  };
  // each mode takes the place of the buttons of the last: the focus they held would fall to the
  // page, so it goes to the confirmation's safe choice, and back to the button that opened a mode
  useEffect(() => {
    if (mode === 'rename') input.current?.select();
    else if (mode === 'confirm') {
      if (focusLost()) keep.current?.focus();
    } else if (opened.current !== null) {
      const back = opened.current === 'rename' ? renameButton : deleteButton;
      opened.current = null;
      if (focusLost()) back.current?.focus();
    }
  }, [mode]);

  if (mode === 'rename') {
    // counted as the server keeps it: one trimmed line
    const tooLong = lengthNotice('The name', oneLineTitle(title), MAX_CONVERSATION_TITLE_CHARS);
    return (
      <li class="chat-conv chat-conv-editing" data-conversation-id={c.id}>
        <form
          class="chat-rename"
          onSubmit={async (e) => {
            e.preventDefault();
            if (tooLong || busy) return;
            setBusy(true);
            const ok = await renameConversation(c.id, title);
            setBusy(false);
            if (ok) {
              onRenamed(oneLineTitle(title) || null);
              setMode('view');
            }
          }}
        >
          <label class="visually-hidden" for={`chat-rename-${c.id}`}>
            New name
          </label>
          <input
            id={`chat-rename-${c.id}`}
            ref={input}
            value={title}
            aria-invalid={tooLong ? true : undefined}
            aria-describedby={tooLong ? `chat-rename-${c.id}-limit` : undefined}
            onInput={(e) => setTitle(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (closesOnEscape(e)) {
                e.stopPropagation();
                setMode('view');
              }
            }}
          />
          {/* aria-disabled while busy, not disabled: a focused button that is disabled drops the
              focus to the page, and a refusal must leave it on Save */}
          <button
            type="submit"
            class="button chat-button-primary"
            disabled={tooLong !== null}
            aria-disabled={busy ? 'true' : undefined}
          >
            Save
          </button>
          <button type="button" class="button" onClick={() => setMode('view')}>
            Cancel
          </button>
          {tooLong && (
            <p class="chat-error chat-rename-limit" id={`chat-rename-${c.id}-limit`} role="alert">
              {tooLong}
            </p>
          )}
        </form>
      </li>
    );
  }
  if (mode === 'confirm') {
    return (
      <li class="chat-conv chat-conv-confirm" data-conversation-id={c.id}>
        <p>
          Delete <strong>{name}</strong>?
        </p>
        <div class="chat-conv-confirm-actions">
          <button
            type="button"
            class="button chat-button-danger"
            aria-disabled={busy ? 'true' : undefined}
            onClick={async () => {
              if (busy) return;
              setBusy(true);
              const ok = await deleteConversation(c.id);
              setBusy(false);
              if (ok) onDeleted();
              else setMode('view');
            }}
          >
            Delete
          </button>
          <button type="button" class="button" ref={keep} onClick={() => setMode('view')}>
            Keep
          </button>
        </div>
      </li>
    );
  }
  return (
    <li class={`chat-conv${shown ? ' chat-conv-shown' : ''}`} data-conversation-id={c.id}>
      <button type="button" class="chat-conv-open" aria-current={shown ? 'true' : undefined} onClick={onOpen}>
        <span class="chat-conv-title">{name}</span>
        <span class="chat-conv-meta">{when(c.updatedAt)}</span>
        {c.snippet && <span class="chat-conv-snippet">{c.snippet}</span>}
      </button>
      <button
        type="button"
        class="chat-icon-btn"
        ref={renameButton}
        aria-label={`Rename ${name}`}
        onClick={() => {
          setTitle(c.title ?? '');
          open('rename');
        }}
      >
        <PencilIcon />
      </button>
      <button
        type="button"
        class="chat-icon-btn"
        ref={deleteButton}
        aria-label={`Delete ${name}`}
        onClick={() => open('confirm')}
      >
        <TrashIcon />
      </button>
    </li>
  );
}
