/**
 * The body of a card whose renderer this version does not have (an unknown or misspelt
 * `component`): a quiet note instead of a blank card or a broken page.
 */
export function UnknownRenderer({ component }: { component: string }) {
  return (
    <p class="unknown-renderer" data-unknown-renderer={component}>
      This version of Klebb has no <code>{component}</code> display yet. The card's data is safe.
    </p>
  );
}
