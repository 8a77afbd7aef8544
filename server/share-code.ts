import { randomInt } from 'node:crypto';
import { RACE_CODE_ALPHABET, RACE_CODE_LENGTH } from '../contract/index.js';
import type { Pending } from './ports.js';

/** A random share code (races and series alike) that `find` finds nothing under. */
export async function freshShareCode(find: (code: string) => Pending<unknown>): Promise<string> {
  for (;;) {
    const code = randomShareCode();
    if (!(await find(code))) return code;
  }
}

function randomShareCode(): string {
  let code = '';
  for (let i = 0; i < RACE_CODE_LENGTH; i++) code += RACE_CODE_ALPHABET[randomInt(RACE_CODE_ALPHABET.length)];
  return code;
}
