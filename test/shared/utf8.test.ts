import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeUtf8 } from '../../shared/utf8.js';

describe('encodeUtf8', () => {
  it('gives the bytes of TextEncoder for every string, lone surrogates included', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)) }), (text, surrogates) => {
        const mixed = text + surrogates + text;
        expect(encodeUtf8(mixed)).toEqual(encoder.encode(mixed));
      }),
    );
  });

  it('encodes one to four bytes per code point', () => {
    expect([...encodeUtf8('A\u00e9\u2663\u{1F0A1}')]).toEqual([0x41, 0xc3, 0xa9, 0xe2, 0x99, 0xa3, 0xf0, 0x9f, 0x82, 0xa1]);
    expect([...encodeUtf8('\ud800x')]).toEqual([0xef, 0xbf, 0xbd, 0x78]);
  });
});
