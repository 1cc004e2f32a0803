/**
 * The card in view (issue 6 "The card in view is sent as the card in focus"): cards on a view are
 * `<article data-card-id>` inside `#main`. An IntersectionObserver measures how much of each is on
 * screen; a MutationObserver follows cards as views change. The card in focus is the one showing
 * the most of itself (visible area), the earlier one on a tie; none when no card is on screen.
 */

const THRESHOLDS = Array.from({ length: 11 }, (_, i) => i / 10);

let visible: Map<Element, number> | null = null;

function watch(io: IntersectionObserver, root: ParentNode): void {
  for (const el of root.querySelectorAll('article[data-card-id]')) io.observe(el);
}

/** Starts tracking (once per page; later calls do nothing). */
export function startCardFocus(): void {
  if (visible || typeof IntersectionObserver === 'undefined') return;
  const seen = new Map<Element, number>();
  visible = seen;
  const io = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        const area = e.isIntersecting ? e.intersectionRect.width * e.intersectionRect.height : 0;
        if (area > 0) seen.set(e.target, area);
        else seen.delete(e.target);
      }
    },
    { threshold: THRESHOLDS },
  );
  const main = document.getElementById('main') ?? document.body;
  watch(io, main);
  new MutationObserver((records) => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (!(n instanceof Element)) continue;
        if (n.matches('article[data-card-id]')) io.observe(n);
        watch(io, n);
      }
      for (const n of r.removedNodes) {
        if (!(n instanceof Element)) continue;
        for (const el of [...seen.keys()]) {
          if (el === n || n.contains(el)) {
            seen.delete(el);
            io.unobserve(el);
          }
        }
      }
    }
  }).observe(main, { childList: true, subtree: true });
}

/** The id of the card showing the most of itself, or null. */
export function cardInFocus(): string | null {
  if (!visible) return null;
  let best: Element | null = null;
  let bestArea = 0;
  for (const [el, area] of visible) {
    if (!el.isConnected) continue;
    const earlier = best !== null && best.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING;
    if (area > bestArea || (area === bestArea && earlier)) {
      best = el;
      bestArea = area;
    }
  }
  return best?.getAttribute('data-card-id') ?? null;
}
