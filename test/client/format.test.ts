// The client's formatting of times and days.
import { describe, expect, it } from 'vitest';
import { addDays } from '../../contract/index.js';
import { duration, formatDay, sentence } from '../../client/src/lib/format.js';

describe('format', () => {
  it('writes durations in minutes and seconds, with tenths for ranked times', () => {
    expect(duration(0)).toBe('0:00');
    expect(duration(247_900)).toBe('4:07');
    expect(duration(247_900, true)).toBe('4:07.9');
    expect(duration(3_723_040, true)).toBe('1:02:03.0');
    expect(duration(-5, true)).toBe('0:00.0');
  });

  it('walks UTC days across months, years and leap days', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(formatDay('2026-11-29')).toBe('Sunday, 29 November 2026');
  });

  it('starts a server message as a sentence', () => {
    expect(sentence('you have played the daily deal')).toBe('You have played the daily deal');
  });
});
