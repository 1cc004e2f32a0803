/**
 * The chat button on every page (mounted in `#chat-slot` by web/app.tsx). It is all the
 * chat code the first page load carries: the panel (markdown, streaming, drawer, voice) is a
 * separate chunk fetched with `import()` the first time the panel opens, or at once after a
 * reload that left a turn in flight or the panel open in this tab. Once loaded the panel stays
 * mounted (hidden while closed) so a running turn keeps streaming.
 */
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { instance } from '../lib/instance.js';
import { startCardFocus } from './card-focus.js';
import { chatWithName } from './chat-name.js';
import { storedTurn } from './chat-storage.js';
import { chatBusy, chatOpen, openChat } from './launcher-state.js';
import './launcher.css';

type PanelModule = { ChatPanel: ComponentType };

let loading: Promise<PanelModule> | null = null;

/** Fetches the panel chunk once; a failed fetch (offline) may be tried again. */
function loadPanel(): Promise<PanelModule> {
  loading ??= import('./chat-panel.js').catch((err: unknown) => {
    loading = null;
    throw err;
  });
  return loading;
}

export function ChatLauncher() {
  const [Panel, setPanel] = useState<ComponentType | null>(null);
  const [failed, setFailed] = useState(false);
  const open = chatOpen.value;
  const wanted = open || storedTurn() !== null;

  // interactions with cards count from the first, long before the panel's code is loaded
  useEffect(startCardFocus, []);

  useEffect(() => {
    if (!wanted || Panel) return;
    let live = true;
    setFailed(false);
    loadPanel().then(
      (m) => live && setPanel(() => m.ChatPanel),
      () => {
        if (!live) return;
        setFailed(true);
        chatOpen.value = false;
      },
    );
    return () => {
      live = false;
    };
  }, [wanted, Panel]);

  const agent = instance.value?.chatAgent ?? { name: 'Chat', emoji: '💬' };
  return (
    <>
      {!(open && Panel) && (
        <button
          type="button"
          class="chat-launcher"
          data-chat-launcher=""
          aria-label={failed ? 'The chat could not load; try again' : chatWithName(agent.name)}
          title={failed ? 'The chat could not load. Try again.' : chatWithName(agent.name)}
          aria-haspopup="dialog"
          aria-busy={open && !Panel ? 'true' : undefined}
          onClick={openChat}
        >
          <svg width="26" height="26" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path
              d="M4.5 5.5h15a1 1 0 0 1 1 1v9a1 1 0 0 1-1 1H11l-4.5 3.5v-3.5h-2a1 1 0 0 1-1-1v-9a1 1 0 0 1 1-1Z"
              fill="none"
              stroke="currentColor"
              stroke-width="1.9"
              stroke-linejoin="round"
            />
            <path d="M8 10.5h8M8 13.5h5" stroke="currentColor" stroke-width="1.9" stroke-linecap="round" />
          </svg>
          {chatBusy.value && <span class="chat-launcher-dot" aria-hidden="true" />}
        </button>
      )}
      {Panel && <Panel />}
    </>
  );
}
