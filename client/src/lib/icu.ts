import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { numberFormat, pluralRules } from './intl.js';

/** An ICU argument's value. */
export type Value = string | number;

/**
 * A number the locale's way. Below 1000 a whole number is its digits alone in every language
 * Lucie speaks (Latin digits, no grouping): written so without making the locale's formatter,
 * whose first making costs a phone tens of milliseconds as the first page is drawn.
 */
function writeNumber(value: number, locale: string): string {
  return Number.isInteger(value) && value >= 0 && value < 1000 ? String(value) : numberFormat(locale).format(value);
}

/**
 * Writes a message parsed at build time (vite-messages.ts, by formatjs's ICU parser) with
 * `values`: the part of ICU MessageFormat Lucie's catalogues use (arguments, `number`, `select`,
 * `plural` and `selectordinal` with `=n` cases, offsets and `#`), on the browser's own Intl.
 */
export function formatMessage(elements: readonly MessageFormatElement[], locale: string, values: Readonly<Record<string, Value>> = {}, count?: string): string {
  let text = '';
  for (const element of elements) {
    switch (element.type) {
      case 0: // literal
        text += element.value;
        break;
      case 7: // # in a plural: its number
        text += count ?? '#';
        break;
      case 1: // {name}
      case 2: {
        // {name, number}
        const value = values[element.value];
        text += typeof value === 'number' ? writeNumber(value, locale) : (value ?? `{${element.value}}`);
        break;
      }
      case 5: {
        // {name, select, ...}
        const option = element.options[String(values[element.value])] ?? element.options.other;
        if (option) text += formatMessage(option.value, locale, values, count);
        break;
      }
      case 6: {
        // {name, plural | selectordinal, ...}
        const value = Number(values[element.value]) - element.offset;
        const category = pluralRules(locale, { type: element.pluralType }).select(value);
        const option = element.options[`=${value + element.offset}`] ?? element.options[category] ?? element.options.other;
        if (option) text += formatMessage(option.value, locale, values, writeNumber(value, locale));
        break;
      }
      default:
        throw new Error(`unsupported ICU element ${element.type} (date, time and tags are not used by the catalogues)`);
    }
  }
  return text;
}
