/**
 * The player's preferences, kept in this browser (localStorage) and applied to the page as
 * `data-theme` (light or dark) and `data-deck` on the root element, so the stylesheet does the rest.
 */
import { untrack } from 'svelte';
import { isLocale, locale, pickLocale, setLocale, type AnyLocale } from './i18n.svelte.js';

const STORAGE_KEY = 'lucie.settings';

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
/** Card animation: `normal` 240 ms, `fast` 120 ms, `off`. */
export const SPEEDS = ['normal', 'fast', 'off'] as const;
export type Speed = (typeof SPEEDS)[number];

export interface Settings {
  /** The language: on a first visit the first of the browser's languages Lucie speaks, then the player's choice. */
  locale: AnyLocale;
  /** Clubs green and diamonds blue, so the two suits of each colour differ at a glance. */
  fourColour: boolean;
  theme: Theme;
  speed: Speed;
  sound: boolean;
  /** Safe cards go home by themselves in practice... */
  autoPlayPractice: boolean;
  /** ...and in ranked games (races, daily attempts), where it is off unless chosen. */
  autoPlayRanked: boolean;
}

export const DEFAULT_SETTINGS: Omit<Settings, 'locale'> = {
  fourColour: false,
  theme: 'system',
  speed: 'normal',
  sound: false,
  autoPlayPractice: true,
  autoPlayRanked: false,
};

/** A saved entry, with anything missing or damaged taken from the defaults (the language from the browser's `languages`). */
export function parseSettings(text: string | null, languages: readonly string[]): Settings {
  let saved: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text ?? '{}');
    if (parsed && typeof parsed === 'object') saved = parsed as Record<string, unknown>;
  } catch {
    // A damaged entry falls back to the defaults.
  }
  const flag = (name: keyof typeof DEFAULT_SETTINGS): boolean => (typeof saved[name] === 'boolean' ? (saved[name] as boolean) : (DEFAULT_SETTINGS[name] as boolean));
  return {
    locale: isLocale(saved.locale) ? saved.locale : pickLocale(languages),
    fourColour: flag('fourColour'),
    theme: THEMES.includes(saved.theme as Theme) ? (saved.theme as Theme) : DEFAULT_SETTINGS.theme,
    speed: SPEEDS.includes(saved.speed as Speed) ? (saved.speed as Speed) : DEFAULT_SETTINGS.speed,
    sound: flag('sound'),
    autoPlayPractice: flag('autoPlayPractice'),
    autoPlayRanked: flag('autoPlayRanked'),
  };
}

function stored(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export const settings = $state<Settings>(parseSettings(stored(), globalThis.navigator?.languages ?? []));

const prefersReducedMotion = (): boolean => globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/** How long a card takes to move, in ms: the chosen speed, and none when the system asks for reduced motion. */
export function animationMs(): number {
  if (settings.speed === 'off' || prefersReducedMotion()) return 0;
  return settings.speed === 'fast' ? 120 : 240;
}

/**
 * Saves every change, mirrors theme (`system` resolved to light or dark) and deck on `<html>`,
 * and follows a change of language; call once at start-up, once the first language is loaded.
 */
export function applySettings(): void {
  const darkSystem = globalThis.matchMedia?.('(prefers-color-scheme: dark)');
  const root = document.documentElement;
  const paint = (): void => {
    root.dataset.theme = settings.theme === 'system' ? (darkSystem?.matches ? 'dark' : 'light') : settings.theme;
  };
  darkSystem?.addEventListener('change', paint);
  $effect.root(() => {
    $effect(() => {
      paint();
      root.dataset.deck = settings.fourColour ? 'four' : 'two';
      // The catalogue changes as a page's later words arrive: only a change of the setting switches language.
      const wanted = settings.locale;
      if (wanted !== untrack(locale)) void setLocale(wanted);
      // Written only when a setting changes: another tab's (or a test's) newer settings are not overwritten by this page's.
      const text = JSON.stringify(settings);
      try {
        localStorage.setItem(STORAGE_KEY, text);
      } catch {
        // Private modes may refuse storage: the settings then last for this visit.
      }
    });
  });
}
