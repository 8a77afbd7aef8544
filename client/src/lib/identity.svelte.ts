import type { PlayerView } from './contract.js';

/**
 * Who this browser plays as: the player and their secret token, kept in localStorage so a
 * reload or a shared link keeps the same identity.
 */
const STORAGE_KEY = 'lucie.identity';

interface Identity {
  player: PlayerView | null;
  token: string | null;
}

function load(): Identity {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Identity | null;
    if (saved?.player && typeof saved.token === 'string') return saved;
  } catch {
    // A damaged entry is forgotten below.
  }
  return { player: null, token: null };
}

export const identity = $state<Identity>(load());

export function remember(player: PlayerView, token: string): void {
  identity.player = player;
  identity.token = token;
  localStorage.setItem(STORAGE_KEY, JSON.stringify({ player, token }));
}

export function forget(): void {
  identity.player = null;
  identity.token = null;
  localStorage.removeItem(STORAGE_KEY);
}
