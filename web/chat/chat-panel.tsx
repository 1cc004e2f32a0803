/**
 * The chat panel, loaded on first open by chat-launcher.tsx: a floating panel on wide
 * screens, a full-height sheet on a phone. Header with the agent's name and emoji
 * (`GET /api/instance`), the conversation's title, the drawer, "new conversation" and close; the
 * transcript; the composer. When the server has no chat endpoint it says what to set instead.
 * Escape closes the drawer, then the panel. The drawer's code is fetched when it first opens.
 */
import type { ComponentType } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { closesOnEscape } from '../lib/input-method-keys.js';
import { instance } from '../lib/instance.js';
import '../styles/chat.css';
import { CloseIcon, MenuIcon, NewIcon } from './chat-icons.js';
import { configured, current, draft, notice } from './chat-state.js';
import { Composer } from './composer.js';
import { newConversation, startChat } from './conversation-actions.js';
import { chatOpen, closeChat, pendingDraft } from './launcher-state.js';
import { MessageList } from './message-list.js';
import { useVisualViewport } from './use-visual-viewport.js';

type DrawerComponent = ComponentType<{ onClose(): void }>;

/** The drawer (list, search, rename, delete, feedback) is its own chunk, fetched when first opened. */
let drawerModule: Promise<DrawerComponent> | null = null;

function loadDrawer(): Promise<DrawerComponent> {
  drawerModule ??= import('./conversation-drawer.js').then(
    (m) => m.ConversationDrawer,
    (err: unknown) => {
      drawerModule = null;
      throw err;
    },
  );
  return drawerModule;
}

/** Phones get no automatic focus in the text box: it would pop the keyboard over the transcript. */
const coarsePointer = () => window.matchMedia('(pointer: coarse)').matches;

export function ChatPanel() {
  const open = chatOpen.value;
  const [drawer, setDrawer] = useState(false);
  const [Drawer, setDrawerComponent] = useState<DrawerComponent | null>(null);
  const panel = useRef<HTMLElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  useVisualViewport(panel, open);

  useEffect(() => {
    void startChat();
  }, []);

  // text handed over by another part of the app (a suggestion on Today) goes into the composer
  const handed = pendingDraft.value;
  useEffect(() => {
    if (handed === null) return;
    draft.value = handed;
    pendingDraft.value = null;
  }, [handed]);

  useEffect(() => {
    document.documentElement.classList.toggle('chat-open', open);
    if (!open) setDrawer(false);
  }, [open]);

  useEffect(() => {
    if (!drawer || Drawer) return;
    loadDrawer().then(
      (c) => setDrawerComponent(() => c),
      () => {
        setDrawer(false);
        notice.value = 'The conversation list could not load. Check the connection and try again.';
      },
    );
  }, [drawer, Drawer]);

  /** Closes the list; focus that was inside it (now gone) goes back to the ☰ button. */
  function closeDrawer() {
    setDrawer(false);
    requestAnimationFrame(() => {
      const at = document.activeElement;
      if (!at || at === document.body || !at.isConnected) menuButton.current?.focus();
    });
  }

  function close() {
    closeChat();
    requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-chat-launcher]')?.focus());
  }

  const agent = instance.value?.chatAgent ?? { name: 'Chat', emoji: '💬' };
  const notConfigured = configured.value === false;
  const title = current.value.title;
  return (
    <section
      ref={panel}
      class="chat-panel"
      role="dialog"
      aria-label={agent.name.trim().toLowerCase() === 'chat' ? 'Chat' : `Chat with ${agent.name}`}
      hidden={!open}
      data-chat-panel=""
      onKeyDown={(e) => {
        if (!closesOnEscape(e)) return;
        e.preventDefault();
        if (drawer) closeDrawer();
        else close();
      }}
    >
      <header class="chat-head">
        <button
          ref={menuButton}
          type="button"
          class="chat-icon-btn"
          aria-label="Conversations"
          aria-expanded={drawer}
          onClick={() => setDrawer(!drawer)}
        >
          <MenuIcon />
        </button>
        <div class="chat-heading">
          <span class="chat-head-emoji" aria-hidden="true">
            {agent.emoji}
          </span>
          <div class="chat-heading-text">
            <h2 class="chat-name">{agent.name}</h2>
            <p class="chat-subtitle" data-chat-title="">
              {title ?? (current.value.id ? 'Untitled conversation' : 'New conversation')}
            </p>
          </div>
        </div>
        <button
          type="button"
          class="chat-icon-btn"
          aria-label="New conversation"
          title="New conversation"
          onClick={newConversation}
        >
          <NewIcon />
        </button>
        <button type="button" class="chat-icon-btn" aria-label="Close chat" title="Close" onClick={close}>
          <CloseIcon />
        </button>
      </header>
      {notice.value && (
        <p class="chat-notice" role="alert">
          <span>{notice.value}</span>
          <button
            type="button"
            class="chat-link-btn"
            onClick={() => {
              notice.value = null;
            }}
          >
            Dismiss
          </button>
        </p>
      )}
      {notConfigured ? <NotConfigured /> : <MessageList agent={agent} />}
      <Composer disabled={notConfigured} autoFocus={open && !coarsePointer()} />
      {drawer && Drawer && <Drawer onClose={closeDrawer} />}
    </section>
  );
}

function NotConfigured() {
  return (
    <div class="chat-scroll">
      <div class="chat-empty chat-not-configured" data-chat-not-configured="">
        <p class="chat-empty-emoji" aria-hidden="true">
          🔌
        </p>
        <h3>Chat is not set up on this server</h3>
        <p>
          Whoever runs Klebb can switch it on by setting <code>CHAT_ENDPOINT_URL</code> (the model's
          chat-completions address), <code>CHAT_API_KEY</code> and <code>CHAT_MODEL</code>, and restarting the
          server.
        </p>
      </div>
    </div>
  );
}
