/**
 * `pure(Component)`: the component renders again only when one of its props changed (shallow
 * comparison), like preact/compat's `memo`, without pulling the React compatibility layer into
 * the panel's chunk (to keep it small).
 */
import { Component, type ComponentChildren, type FunctionComponent, h } from 'preact';

function sameProps(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  for (const k in a) if (a[k] !== b[k]) return false;
  for (const k in b) if (!(k in a)) return false;
  return true;
}

/** `render` wrapped so that equal props skip re-rendering. */
export function pure<P extends object>(render: FunctionComponent<P>): FunctionComponent<P> {
  class Pure extends Component<P> {
    shouldComponentUpdate(next: P): boolean {
      return !sameProps(this.props as Record<string, unknown>, next as Record<string, unknown>);
    }
    render(props: P): ComponentChildren {
      return h(render as FunctionComponent<P>, props);
    }
  }
  return Pure as unknown as FunctionComponent<P>;
}
