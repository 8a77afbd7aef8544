// `lucie backup DATA_DIR FILE` and `lucie restore FILE DATA_DIR`: the SQLite database's backups
// by hand (server/backup.ts; a running server takes its own every BACKUP_INTERVAL_MIN).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { backupDatabase, restoreBackup } from '../server/backup.js';
import { DB_FILE } from '../server/db/index.js';

/** Online: the server may keep running and committing while the copy is taken. */
export async function backup(args: string[], fail: (message: string) => never): Promise<number> {
  if (args.length !== 2) fail('backup needs DATA_DIR and FILE');
  const [dataDir, file] = args.map((arg) => resolve(arg)) as [string, string];
  const source = join(dataDir, DB_FILE);
  if (!existsSync(source)) fail(`there is no database at ${source}`);
  if (existsSync(file)) fail(`${file} exists already: name a new file`);
  await backupDatabase(source, file);
  process.stdout.write(`${JSON.stringify({ ok: true, backup: file, from: source })}\n`);
  return 0;
}

/** Refused while a server has the database open; a stopped one is kept aside, never overwritten. */
export async function restore(args: string[], fail: (message: string) => never): Promise<number> {
  if (args.length !== 2) fail('restore needs FILE and DATA_DIR');
  const [file, dataDir] = args.map((arg) => resolve(arg)) as [string, string];
  if (!existsSync(file)) fail(`there is no backup at ${file}`);
  if (!existsSync(dataDir)) fail(`there is no folder ${dataDir}`);
  try {
    const keptAside = await restoreBackup(file, dataDir, Date.now());
    process.stdout.write(`${JSON.stringify({ ok: true, restored: join(dataDir, DB_FILE), from: file, keptAside: keptAside ?? null })}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`lucie: ${(error as Error).message}\n`);
    return 1;
  }
}
