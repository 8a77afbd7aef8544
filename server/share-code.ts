import { randomInt } from 'node:crypto';
import { RACE_CODE_ALPHABET, RACE_CODE_LENGTH } from '../contract/index.js';

/** A random share code (races and series alike) that `taken` says is free. */
export function freshShareCode(taken: (code: string) => boolean): string {
  for (;;) {
    let code = '';
    for (let i = 0; i < RACE_CODE_LENGTH; i++) code += RACE_CODE_ALPHABET[randomInt(RACE_CODE_ALPHABET.length)];
    if (!taken(code)) return code;
  }
}
