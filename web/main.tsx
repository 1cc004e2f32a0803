/**
 * Browser entry: applies the theme, starts the router and the watch for a new day, loads the
 * instance branding, reports the browser's time zone to the server (at load and whenever it
 * changes), registers the service worker (reminders, offline), and renders the shell.
 */
import { render } from 'preact';
import { App } from './app.js';
import { isSignInPath } from './auth/sign-in-paths.js';
import { startDayWatch } from './lib/dates.js';
import { loadInstance, watchTimeZone } from './lib/instance.js';
import { startLive } from './lib/live.js';
import { startServiceWorker } from './lib/push.js';
import { startRouter } from './lib/router.js';
import { startTheme } from './lib/theme.js';
import './styles/app.css';

startTheme();
startRouter();
startDayWatch();
// the sign-in pages need none of this, and a signed-out browser would only get 401s
if (!isSignInPath(location.pathname)) {
  void loadInstance();
  watchTimeZone();
  startLive();
  startServiceWorker();
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
