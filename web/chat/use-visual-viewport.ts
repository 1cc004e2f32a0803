/**
 * Keeps the chat sheet inside the part of the screen the person can see: on phones the keyboard shrinks the *visual* viewport, not the layout
 * one, so a `position: fixed` sheet would sit under it. While `active`, the element gets
 * `--chat-vv-top` and `--chat-vv-height` (px) from `window.visualViewport`; the phone styles in
 * web/styles/chat.css size the sheet with them (falling back to `100dvh`).
 */
import type { RefObject } from 'preact';
import { useEffect } from 'preact/hooks';

export function useVisualViewport(ref: RefObject<HTMLElement | null>, active: boolean): void {
  useEffect(() => {
    const vv = window.visualViewport;
    const el = ref.current;
    if (!vv || !el || !active) return;
    const update = () => {
      el.style.setProperty('--chat-vv-top', `${Math.round(vv.offsetTop)}px`);
      el.style.setProperty('--chat-vv-height', `${Math.round(vv.height)}px`);
    };
    update();
    vv.addEventListener('resize', update);
    vv.addEventListener('scroll', update);
    return () => {
      vv.removeEventListener('resize', update);
      vv.removeEventListener('scroll', update);
      el.style.removeProperty('--chat-vv-top');
      el.style.removeProperty('--chat-vv-height');
    };
  }, [active]);
}
