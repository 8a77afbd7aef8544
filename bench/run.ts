// `npm run bench [-- engine|server|capacity|storage|daily|scale|solver|phone ...]`: prints figures and ratios to baselines measured in the same run.
import { benchCapacity } from './capacity.js';
import { benchDaily } from './daily.js';
import { benchEngine } from './engine.js';
import { benchPhone } from './phone.js';
import { benchScale } from './scale.js';
import { benchServer } from './server.js';
import { benchSolver } from './solver.js';
import { benchStorage } from './storage.js';

const suites: Record<string, () => void | Promise<void>> = { engine: benchEngine, daily: benchDaily, server: benchServer, capacity: benchCapacity, storage: benchStorage, scale: benchScale, solver: benchSolver, phone: benchPhone };
const chosen = process.argv.slice(2).filter((name) => name !== '--');
for (const name of chosen.length > 0 ? chosen : Object.keys(suites)) {
  const suite = suites[name];
  if (!suite) throw new Error(`unknown bench "${name}" (one of ${Object.keys(suites).join(', ')})`);
  await suite();
  console.log();
}
