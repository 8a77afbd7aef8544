// The WAL checkpointer thread (started by checkpointer.ts): its own connection copies committed
// pages from the write-ahead log into the database file, so no move's commit ever does it.
// Plain JavaScript: a worker thread does not go through the TypeScript loader of its parent.
import { statSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { file, intervalMs, walLimitBytes } = workerData;
const db = new Database(file, { fileMustExist: true });
// Never wait on the writer: a passive checkpoint takes no lock a commit needs.
db.pragma('busy_timeout = 0');

const walBytes = () => {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
};

let timer;
let stopping = false;
function round() {
  if (stopping) return;
  let behind = false;
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    // Frames still to copy: go again at once instead of falling behind a busy writer.
    behind = result.busy === 0 && result.checkpointed < result.log;
    const bytes = walBytes();
    if (bytes > walLimitBytes) parentPort.postMessage({ type: 'over-limit', bytes });
  } catch (error) {
    parentPort.postMessage({ type: 'failed', message: String(error?.message ?? error), code: error?.code });
  }
  timer = setTimeout(round, behind ? 0 : intervalMs);
}

parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  stopping = true;
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
round();
