/**
 * The little state the eagerly loaded chat button and the lazily loaded panel share:
 * whether the panel is open and whether a turn is running (a dot on the button while the panel is
 * closed). Lives in the main bundle; the panel chunk writes `chatBusy`.
 */
import { signal } from '@preact/signals';
import { storedOpen, storeOpen } from './chat-storage.js';

/** True while the panel is shown. Starts open when this tab had it open before a reload. */
export const chatOpen = signal(storedOpen());

/** True while a turn of the shown conversation is running (set by the panel). */
export const chatBusy = signal(false);

/** Opens the panel (loading its code the first time). */
export function openChat(): void {
  chatOpen.value = true;
  storeOpen(true);
}

/** Text another part of the app wants in the composer; the panel takes it (and clears this) when it shows. */
export const pendingDraft = signal<string | null>(null);

/** Opens the panel with `text` in the composer, for the person to read, change and send. */
export function openChatWith(text: string): void {
  pendingDraft.value = text;
  openChat();
}

/** Closes the panel; it stays mounted, so a running turn keeps streaming into it. */
export function closeChat(): void {
  chatOpen.value = false;
  storeOpen(false);
}
