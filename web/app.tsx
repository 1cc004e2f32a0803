/**
 * The app shell: top bar (instance name, theme toggle), navigation (a tab bar at the bottom of a
 * phone, in the top bar on wider screens), the current view, and the place the chat widget
 * mounts on every page (`#chat-slot`, its own issue).
 */
import type { ComponentType, JSX } from 'preact';
import { LoginPage } from './auth/login-page.js';
import { RegisterPage } from './auth/register-page.js';
import { ChatLauncher } from './chat/chat-launcher.js';
import {
  CalendarIcon,
  MoonIcon,
  ReportsIcon,
  SettingsIcon,
  SunIcon,
  TodayIcon,
  TrendsIcon,
} from './components/icons.js';
import { LiveStatus } from './components/live-status.js';
import { OfflineBanner } from './components/offline-banner.js';
import { currentDay } from './lib/dates.js';
import { instance } from './lib/instance.js';
import { type Match, matchRoute, route } from './lib/router.js';
import { shownTheme, toggleTheme } from './lib/theme.js';
import { DailyPrompt } from './prompt/daily-prompt.js';
import { CalendarView } from './views/calendar-view.js';
import { CardGalleryView } from './views/card-gallery-view.js';
import { NotFoundView } from './views/not-found-view.js';
import { NotificationsView } from './views/notifications-view.js';
import { PhoneView } from './views/phone-view.js';
import { ReportsView } from './views/reports-view.js';
import { SecurityView } from './views/security-view.js';
import { SettingsView } from './views/settings-view.js';
import { SummaryView } from './views/summary-view.js';
import { TodayView } from './views/today-view.js';
import { TrendsView } from './views/trends-view.js';

interface NavItem {
  href: string;
  label: string;
  Icon: ComponentType<{ size?: number }>;
  active(m: Match): boolean;
}

const NAV: NavItem[] = [
  { href: '/', label: 'Today', Icon: TodayIcon, active: (m) => m.name === 'today' },
  { href: '/calendar', label: 'Calendar', Icon: CalendarIcon, active: (m) => m.name === 'calendar' },
  { href: '/trends', label: 'Trends', Icon: TrendsIcon, active: (m) => m.name === 'trends' },
  { href: '/reports', label: 'Reports', Icon: ReportsIcon, active: (m) => m.name === 'reports' },
  {
    href: '/settings',
    label: 'Settings',
    Icon: SettingsIcon,
    active: (m) =>
      m.name === 'settings' ||
      m.name === 'security' ||
      m.name === 'notifications' ||
      m.name === 'phone' ||
      m.name === 'gallery',
  },
];

function viewFor(m: Match): JSX.Element {
  switch (m.name) {
    case 'today':
      return <TodayView date={m.date} />;
    case 'widget':
      return <TodayView date={null} />;
    case 'calendar':
      return <CalendarView />;
    case 'trends':
      return <TrendsView />;
    case 'reports':
      return <ReportsView />;
    case 'settings':
      return <SettingsView section={m.section} />;
    case 'summary':
      return <SummaryView />;
    case 'security':
      return <SecurityView />;
    case 'notifications':
      return <NotificationsView />;
    case 'phone':
      return <PhoneView />;
    case 'gallery':
      return <CardGalleryView />;
    case 'login':
      return <LoginPage />;
    case 'setup':
      return <RegisterPage mode="setup" />;
    case 'register':
      return <RegisterPage mode="invite" />;
    default:
      return <NotFoundView />;
  }
}

export function App() {
  const m = matchRoute(route.value);
  // a new day while the page is open draws every view again (Today moves on to it)
  currentDay.value;
  // sign-in pages: no navigation, no chat, nothing that needs a signed-in caller
  if (m.name === 'login' || m.name === 'setup' || m.name === 'register') {
    return (
      <div class="app app-bare">
        <main id="main" class="main">
          {viewFor(m)}
        </main>
      </div>
    );
  }
  const bare = m.name === 'widget';
  const dark = shownTheme() === 'dark';
  const name = instance.value?.name ?? 'Klebb';
  return (
    <div class={`app${bare ? ' app-bare' : ''}`}>
      {!bare && (
        <a class="skip-link" href="#main">
          Skip to the content
        </a>
      )}
      {!bare && (
        <header class="topbar">
          <div class="topbar-inner">
            {/* the logo leads home, as logos do (it switched the theme, a second button named
                like the one on the right); the name beside it is the keyboard's stop */}
            <a class="brand-mark" href="/" tabIndex={-1} aria-label={name}>
              <Logo />
            </a>
            <a class="brand-name" href="/">
              {name}
            </a>
            <nav class="nav" aria-label="Main">
              {NAV.map(({ href, label, Icon, active }) => (
                <a key={href} href={href} class="nav-link" aria-current={active(m) ? 'page' : undefined}>
                  <Icon size={22} />
                  <span class="nav-label">{label}</span>
                </a>
              ))}
            </nav>
            <LiveStatus />
            <button
              type="button"
              class="icon-button theme-toggle"
              onClick={toggleTheme}
              aria-label={dark ? 'Switch to the light theme' : 'Switch to the dark theme'}
            >
              {dark ? <SunIcon size={22} /> : <MoonIcon size={22} />}
            </button>
          </div>
        </header>
      )}
      <OfflineBanner />
      <main id="main" class="main" tabIndex={-1}>
        {viewFor(m)}
      </main>
      <DailyPrompt match={m} />
      {/* The chat widget mounts here, on every page; its panel loads on first open. */}
      <div id="chat-slot" class="chat-slot" data-chat-slot="">
        <ChatLauncher />
      </div>
    </div>
  );
}

function Logo() {
  return (
    <svg width="30" height="30" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="9" class="logo-bg" />
      <path
        d="M6 17h5l2.5-6 4 11 3-8 1.5 3H26"
        fill="none"
        stroke="#fff"
        stroke-width="2.4"
        stroke-linecap="round"
        stroke-linejoin="round"
      />
    </svg>
  );
}
