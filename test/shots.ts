// vitest global setup: one fresh folder per run for the browser tests' screenshots (named by
// LUCIE_SHOTS, which the test workers inherit), told at the end of the run so it can be looked at.
import { mkdtempSync, readdirSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const given = process.env.LUCIE_SHOTS;
  const dir = given ?? mkdtempSync(join(tmpdir(), 'lucie-shots-'));
  process.env.LUCIE_SHOTS = dir;
  return () => {
    // Told once, by the setup that made it (each test project runs the global setups).
    if (given !== undefined) return;
    const count = readdirSync(dir).length;
    if (count > 0) console.log(`screenshots of this run (${count} files): ${dir}`);
    else rmdirSync(dir);
  };
}
