/** Any client path the app does not know. */
import { Empty } from '../components/status.js';

export function NotFoundView() {
  return (
    <section class="view">
      <Empty emoji="🧭" title="Nothing here">
        This page does not exist. <a href="/">Go to today</a>
      </Empty>
    </section>
  );
}
