import { randomInt } from 'node:crypto';
import { RACE_CODE_ALPHABET, RACE_CODE_LENGTH } from '../contract/index.js';

/** A random share code (races and series alike) that `taken` says is free. */
export function freshShareCode(taken: (code: string) => boolean): string {
  for (;;) {
    const code = randomShareCode();
    if (!taken(code)) return code;
  }
}

/** One code drawn at random, taken or not (a store that answers later checks it itself). */
export function randomShareCode(): string {
  let code = '';
  for (let i = 0; i < RACE_CODE_LENGTH; i++) code += RACE_CODE_ALPHABET[randomInt(RACE_CODE_ALPHABET.length)];
  return code;
}
