/**
 * The card in focus, sent with a turn as `viewedCardId`. Cards on a view are `<article data-card-id>` inside `#main`.
 * 1. The card the person last interacted with: a click, tap or keyboard focus inside it (opening
 *    its form is a click inside it), while that card is still on the page and partly on screen.
 * 2. Else the card most visible in the middle band of the viewport, when it is clearly the most
 *    visible: it shows at least CLEAR_MARGIN times as much of that band as the runner-up.
 *    (When no card reaches that band, the whole viewport is measured the same way.)
 * 3. Else none (null): the agent then asks which card is meant rather than guessing.
 */

const CARD = 'article[data-card-id]';
/** The middle band of the viewport: from 25 % to 75 % of its height. */
const BAND_TOP = 0.25;
const BAND_BOTTOM = 0.75;
/** How much more of the band the best card must cover than the runner-up to count as clearly first. */
const CLEAR_MARGIN = 1.5;

let started = false;
let touched: Element | null = null;

function noteInteraction(e: Event): void {
  const target = e.target;
  if (!(target instanceof Element)) return;
  if (target.closest('[data-chat-panel], [data-chat-launcher]')) return; // the chat is not a card
  const card = target.closest(CARD);
  if (card) touched = card;
}

/** Starts listening for interactions with cards (once per page; later calls do nothing). */
export function startCardFocus(): void {
  if (started) return;
  started = true;
  for (const type of ['pointerdown', 'focusin', 'click']) {
    document.addEventListener(type, noteInteraction, { capture: true, passive: true });
  }
}

/** Whether any of `el` is inside the viewport. */
function onScreen(el: Element): boolean {
  const r = el.getBoundingClientRect();
  return (
    r.bottom > 0 && r.top < window.innerHeight && r.right > 0 && r.left < window.innerWidth && r.height > 0
  );
}

/** Area (px²) of `el` between heights `from` and `to` (fractions of the viewport's height). */
function areaWithin(el: Element, from: number, to: number): number {
  const r = el.getBoundingClientRect();
  const top = Math.max(r.top, window.innerHeight * from);
  const bottom = Math.min(r.bottom, window.innerHeight * to);
  const left = Math.max(r.left, 0);
  const right = Math.min(r.right, window.innerWidth);
  return bottom > top && right > left ? (bottom - top) * (right - left) : 0;
}

/** The card covering clearly the most of `measure`, or null (none, or a close call). */
function clearlyFirst(cards: Element[], measure: (el: Element) => number): Element | null {
  let best: Element | null = null;
  let bestArea = 0;
  let secondArea = 0;
  for (const el of cards) {
    const area = measure(el);
    if (area > bestArea) {
      secondArea = bestArea;
      bestArea = area;
      best = el;
    } else if (area > secondArea) secondArea = area;
  }
  return best && bestArea > 0 && bestArea >= secondArea * CLEAR_MARGIN ? best : null;
}

/** The id of the card in focus (rules above), or null. */
export function cardInFocus(): string | null {
  if (touched?.isConnected && onScreen(touched)) return touched.getAttribute('data-card-id');
  const main = document.getElementById('main') ?? document.body;
  const cards = [...main.querySelectorAll(CARD)];
  const inBand = cards.filter((el) => areaWithin(el, BAND_TOP, BAND_BOTTOM) > 0);
  // no card reaches the middle band (a short page): the whole viewport is measured instead
  const best = inBand.length
    ? clearlyFirst(inBand, (el) => areaWithin(el, BAND_TOP, BAND_BOTTOM))
    : clearlyFirst(cards, (el) => areaWithin(el, 0, 1));
  return best?.getAttribute('data-card-id') ?? null;
}
