/** UTC days as the daily deal counts them, written `YYYY-MM-DD`: one definition for server, client and tests. */

export const DAY_MS = 86_400_000;

/** The UTC day of an instant. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** 00:00 UTC of a day. */
export const dayStart = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/** The UTC day `days` after `day` (negative: before). */
export const addDays = (day: string, days: number): string => dayOf(dayStart(day) + days * DAY_MS);

/** Whether `day` is written `YYYY-MM-DD` and exists in the calendar. */
export const isDay = (day: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(dayStart(day)) && dayOf(dayStart(day)) === day;
