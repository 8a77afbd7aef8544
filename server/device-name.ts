/**
 * A device's name for its player's list, read from its user agent: the browser and the system
 * (`Firefox, Android`), brand names that need no translation. Empty when neither is known.
 */
const BROWSERS: readonly [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: readonly [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

export function deviceName(userAgent: string | undefined): string {
  const find = (table: readonly [RegExp, string][]) => table.find(([pattern]) => pattern.test(userAgent ?? ''))?.[1];
  return [find(BROWSERS), find(SYSTEMS)].filter((part) => part !== undefined).join(', ');
}
