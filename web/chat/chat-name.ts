/**
 * How the chat is named to assistive technology: "Chat with Klebbius", but "Open the chat" when
 * the agent is itself called "Chat" (the default), never "Chat with Chat".
 */

/** The accessible name of the chat for an agent called `name`. */
export function chatWithName(name: string): string {
  const n = name.trim();
  return n === '' || n.toLowerCase() === 'chat' ? 'Open the chat' : `Chat with ${n}`;
}
