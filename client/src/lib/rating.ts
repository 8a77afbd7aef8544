/**
 * How ratings are written: the number with "?" while provisional, a change as "+14" or "−9" (a
 * true minus sign). Digits and signs only, the same in every language: no catalogue words, and
 * no digit grouping (a rating reads as a name more than as a quantity).
 */

export const ratingText = (rating: number, provisional: boolean): string => `${rating}${provisional ? '?' : ''}`;

export function changeText(before: number, after: number): string {
  const diff = after - before;
  return diff > 0 ? `+${diff}` : diff < 0 ? `−${-diff}` : '±0';
}
