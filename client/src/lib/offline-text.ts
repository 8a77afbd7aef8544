/** What the service worker's notices say to the player (English; the message catalogue takes these over). */
export const OFFLINE_TEXT = {
  offlineTitle: 'You are offline.',
  /** On a page that needs the server (races, the daily deal, series, history, a replay not seen before). */
  offlineNeedsServer:
    'This page needs the network. Practice and Open a record file work offline, and so do replays you have already opened.',
  /** A page running an older version than the one now installed. */
  updateReady: 'A new version of Lucie is ready.',
  reload: 'Reload',
} as const;
