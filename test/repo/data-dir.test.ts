// A DATA_DIR the server cannot write stops the start with one sentence naming the folder, what
// is wrong and what to do, and exit code 1: no SqliteError stack. Root writes anywhere, so as
// root the server runs as `nobody`.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase } from '../../server/db/index.js';

const ROOT = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function start(dataDir: string) {
  const command = [process.execPath, '--import', 'tsx', 'server/main.ts'];
  const asUser = process.getuid?.() === 0 ? ['runuser', '-u', 'nobody', '--'] : [];
  const [file, ...args] = [...asUser, 'env', `DATA_DIR=${dataDir}`, 'PORT=0', 'LOG_LEVEL=warn', ...command];
  const run = spawnSync(file!, args, { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { status: run.status, stderr: run.stderr.trim(), stdout: run.stdout.trim() };
}

describe('a DATA_DIR that cannot be written', () => {
  it('an empty read-only folder: one sentence, exit 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lucie-readonly-'));
    dirs.push(dir);
    chmodSync(dir, 0o555);
    const { status, stderr, stdout } = start(dir);
    expect(stdout).toBe('');
    expect(status).toBe(1);
    expect(stderr.split('\n')).toEqual([
      `DATA_DIR ${dir} cannot hold the database: lucie.db there cannot be opened or created (unable to open database file); give the user running Lucie write access to it, or set DATA_DIR to a writable folder.`,
    ]);
  });

  it('a database the server may read but not write: one sentence, exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lucie-readonly-'));
    dirs.push(dir);
    await closeDatabase(openDatabase(dir));
    chmodSync(join(dir, 'lucie.db'), 0o444);
    chmodSync(dir, 0o555);
    const { status, stderr } = start(dir);
    expect(status).toBe(1);
    expect(stderr.split('\n')).toEqual([
      `DATA_DIR ${dir} is read-only: the database lucie.db there cannot be written (attempt to write a readonly database); give the user running Lucie write access to it, or set DATA_DIR to a writable folder.`,
    ]);
  });
});
