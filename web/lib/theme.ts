/**
 * Light and dark themes. `theme` is the person's choice: 'system' follows
 * `prefers-color-scheme`, 'light' and 'dark' force one. The choice is kept in localStorage and
 * applied as `data-theme` on <html>, which the CSS variables in styles/app.css key on.
 */
import { effect, signal } from '@preact/signals';

export type ThemeChoice = 'system' | 'light' | 'dark';

const STORAGE_KEY = 'klebb.theme';

function stored(): ThemeChoice {
  try {
    const v = localStorage.getItem(STORAGE_KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

const media = window.matchMedia('(prefers-color-scheme: dark)');

/** The person's choice. */
export const theme = signal<ThemeChoice>(stored());
/** Whether the system asks for dark. */
export const systemDark = signal(media.matches);

/** The theme actually shown. */
export function shownTheme(): 'light' | 'dark' {
  return theme.value === 'system' ? (systemDark.value ? 'dark' : 'light') : theme.value;
}

/** Sets and remembers the choice. */
export function setTheme(choice: ThemeChoice): void {
  theme.value = choice;
  try {
    if (choice === 'system') localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, choice);
  } catch {
    // private mode: the choice lasts for this page only
  }
}

/** Switches to the other of light and dark (the logo and the top bar button). */
export function toggleTheme(): void {
  setTheme(shownTheme() === 'dark' ? 'light' : 'dark');
}

/** Applies the theme to the document now and whenever it changes. Call once, before rendering. */
export function startTheme(): void {
  media.addEventListener('change', (e) => {
    systemDark.value = e.matches;
  });
  effect(() => {
    const shown = shownTheme();
    const root = document.documentElement;
    if (theme.value === 'system') root.removeAttribute('data-theme');
    else root.setAttribute('data-theme', theme.value);
    root.style.colorScheme = shown;
    // every theme-color (the page has one per colour scheme, for the installed app's title bar)
    for (const meta of document.querySelectorAll('meta[name="theme-color"]')) {
      meta.setAttribute('content', shown === 'dark' ? '#14161a' : '#f6f5f2');
    }
  });
}
