/**
 * The browser's formatters, made once per locale and options: building an `Intl` object costs
 * far more than using one, and a page formats hundreds of messages as it is drawn (a card's name,
 * a count), most of them with the same few formatters.
 */
const made = new Map<string, Intl.NumberFormat | Intl.PluralRules | Intl.ListFormat>();

function once<T extends Intl.NumberFormat | Intl.PluralRules | Intl.ListFormat>(kind: string, locale: string, options: object, make: () => T): T {
  const key = `${kind} ${locale} ${JSON.stringify(options)}`;
  let formatter = made.get(key) as T | undefined;
  if (!formatter) made.set(key, (formatter = make()));
  return formatter;
}

export const numberFormat = (locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat =>
  once('number', locale, options, () => new Intl.NumberFormat(locale, options));

export const pluralRules = (locale: string, options: Intl.PluralRulesOptions = {}): Intl.PluralRules =>
  once('plural', locale, options, () => new Intl.PluralRules(locale, options));

export const listFormat = (locale: string, options: Intl.ListFormatOptions = {}): Intl.ListFormat =>
  once('list', locale, options, () => new Intl.ListFormat(locale, options));
