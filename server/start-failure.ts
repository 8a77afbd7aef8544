// A start that fails on its data folder says so in one sentence an operator can act on, not
// with a stack: the folder cannot be made, the database cannot be opened, or it is read-only.

const READ_ONLY = /^SQLITE_READONLY/;
const CANNOT_OPEN = new Set(['SQLITE_CANTOPEN', 'SQLITE_PERM', 'SQLITE_AUTH']);
const FILESYSTEM = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'ENOSPC', 'EEXIST']);

/** The sentence for an error met while opening `dataDir`, or undefined for any other error (a bug, shown whole). */
export function dataDirProblem(error: unknown, dataDir: string): string | undefined {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const reason = error instanceof Error ? error.message : String(error);
  const fix = 'give the user running Lucie write access to it, or set DATA_DIR to a writable folder';
  if (READ_ONLY.test(code) || code === 'EROFS') return `DATA_DIR ${dataDir} is read-only: the database lucie.db there cannot be written (${reason}); ${fix}.`;
  if (CANNOT_OPEN.has(code)) return `DATA_DIR ${dataDir} cannot hold the database: lucie.db there cannot be opened or created (${reason}); ${fix}.`;
  if (FILESYSTEM.has(code)) return `DATA_DIR ${dataDir} cannot be used (${reason}); ${fix}.`;
  return undefined;
}
