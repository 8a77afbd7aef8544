// An analysis worker that takes jobs and never answers: a solve that overruns.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', () => {});
