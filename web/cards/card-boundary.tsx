/**
 * The error boundary around one card's renderer: a renderer that throws while drawing (data in a
 * shape it did not expect) shows a short note in its own card, and the rest of the page goes on
 * (docs/MANIFEST-SCHEMA.md "Renderers"). The failure is logged once per card and message.
 */
import { Component, type ComponentChildren } from 'preact';
import { clipGraphemes } from '../../src/common/graphemes.js';
import { RendererNote } from './renderer-note.js';

/** Props of the boundary: the card it guards (for the log) and the renderer it wraps. */
export interface CardBoundaryProps {
  cardId: string;
  /** When this changes (new card data), a failed card tries to draw again. */
  resetKey: unknown;
  children: ComponentChildren;
}

interface CardBoundaryState {
  error: string | null;
}

/** Catches what the wrapped renderer throws and shows "This card could not be drawn: …". */
export class CardBoundary extends Component<CardBoundaryProps, CardBoundaryState> {
  state: CardBoundaryState = { error: null };
  private logged: string | null = null;

  static getDerivedStateFromError(err: unknown): CardBoundaryState {
    return { error: messageOf(err) };
  }

  componentDidCatch(err: unknown): void {
    const message = messageOf(err);
    if (this.logged !== message) {
      this.logged = message;
      console.error(`Card "${this.props.cardId}" could not be drawn:`, err);
    }
    this.setState({ error: message });
  }

  componentDidUpdate(prev: CardBoundaryProps): void {
    // new data (or another card in this place) gets a fresh try
    if (this.state.error !== null && prev.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  render() {
    if (this.state.error !== null) {
      return <RendererNote tone="problem">This card could not be drawn: {this.state.error}</RendererNote>;
    }
    return this.props.children;
  }
}

function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return clipGraphemes(text, 200);
}
