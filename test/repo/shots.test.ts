// Browser-test output goes to a fresh folder per run (test/shots.ts), never a fixed shared path.
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import setup from '../shots.js';

const given = process.env.LUCIE_SHOTS;
afterEach(() => {
  if (given === undefined) delete process.env.LUCIE_SHOTS;
  else process.env.LUCIE_SHOTS = given;
});

describe('the screenshot folder', () => {
  it('is a new folder under the system temporary folder for each run, handed to the workers, removed when left empty', () => {
    delete process.env.LUCIE_SHOTS;
    const teardownA = setup();
    const a = process.env.LUCIE_SHOTS!;
    delete process.env.LUCIE_SHOTS;
    const teardownB = setup();
    const b = process.env.LUCIE_SHOTS!;
    expect(a).not.toBe(b);
    for (const dir of [a, b]) {
      expect(dir.startsWith(`${tmpdir()}/lucie-shots-`)).toBe(true);
      expect(statSync(dir).isDirectory()).toBe(true);
    }
    writeFileSync(`${a}/page.png`, 'png');
    teardownA();
    teardownB();
    expect([existsSync(a), existsSync(b)]).toEqual([true, false]);
    rmSync(a, { recursive: true });
  });
});
