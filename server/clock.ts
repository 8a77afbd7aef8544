/** Time as the server sees it; injectable so tests can move countdowns and time limits by hand. */
export interface Clock {
  now(): number;
  /** Calls `fn` once after `ms` (immediately-ish when ms <= 0); returns a cancel function. */
  setTimer(ms: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, fn) {
    const timer = setTimeout(fn, Math.max(0, ms));
    return () => clearTimeout(timer);
  },
};
