// An analysis worker that crashes on its first job: a solver fault.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', () => {
  throw new Error('solver fault on purpose');
});
