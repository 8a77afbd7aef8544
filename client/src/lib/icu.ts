import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { numberFormat, pluralRules } from './intl.js';

/** An ICU argument's value. */
export type Value = string | number;

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
        text += typeof value === 'number' ? numberFormat(locale).format(value) : (value ?? `{${element.value}}`);
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
        if (option) text += formatMessage(option.value, locale, values, numberFormat(locale).format(value));
        break;
      }
      default:
        throw new Error(`unsupported ICU element ${element.type} (date, time and tags are not used by the catalogues)`);
    }
  }
  return text;
}
