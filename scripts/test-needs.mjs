// What the tests need that npm cannot bring, checked before any test starts:
//   node scripts/test-needs.mjs [unit|browser|all]   (npm test: all; npm run test:unit: unit)
// unit needs PostgreSQL (pg_ctl) and Redis (redis-server), which test/services.ts starts in a
// temporary folder; browser also needs Debian's Chromium. What is missing is installed when this
// runs as root with apt-get (non-interactive, and no system service started: a policy-rc.d that
// refuses every start is in place during the install, as in .ci/run); otherwise one line names
// what is missing and the command that installs it, and the exit code is 1, at once.
// TEST_DATABASE_URL and TEST_REDIS_URL (servers of your own) stand in for PostgreSQL and Redis;
// PG_BIN names PostgreSQL's bin folder as in scripts/services.sh.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const scope = process.argv[2] ?? 'all';
if (!['unit', 'browser', 'all'].includes(scope)) {
  console.error(`test-needs: unknown scope "${scope}" (unit, browser or all)`);
  process.exit(2);
}

const executable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};
/** The command's path on PATH, or undefined. */
const onPath = (command) =>
  (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, command))
    .find(executable);

function postgresInstalled() {
  if (process.env.PG_BIN) return executable(join(process.env.PG_BIN, 'pg_ctl'));
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql') : [];
  return versions.some((version) => executable(join('/usr/lib/postgresql', version, 'bin', 'pg_ctl')));
}

/** What the tests need: a name for people, its Debian package, whether it is there. */
const needs = [];
const ownServices = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);
if (!ownServices) {
  needs.push({ name: 'PostgreSQL (pg_ctl)', package: 'postgresql', present: postgresInstalled });
  needs.push({ name: 'Redis (redis-server)', package: 'redis-server', present: () => onPath('redis-server') !== undefined });
}
if (scope !== 'unit') needs.push({ name: 'Chromium (/usr/bin/chromium)', package: 'chromium', present: () => executable('/usr/bin/chromium') });

const missing = needs.filter((need) => !need.present());
if (missing.length === 0) process.exit(0);

const packages = missing.map((need) => need.package).join(' ');
const aptGet = onPath('apt-get');
if (process.getuid?.() !== 0 || aptGet === undefined) {
  const names = missing.map((need) => need.name);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  console.error(
    `The tests need ${list}, not installed here: run \`sudo apt-get install -y ${packages}\` (Debian's packages; npm test installs them itself when run as root with apt-get)${ownServices ? '' : ', or set TEST_DATABASE_URL and TEST_REDIS_URL to servers of your own'}.`,
  );
  process.exit(1);
}

console.error(`test-needs: installing ${packages} with apt-get (no service is started)`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
const policy = '/usr/sbin/policy-rc.d';
const ownPolicy = !existsSync(policy);
try {
  // Exit 101 from policy-rc.d: "action forbidden", so the packages' clusters and daemons stay off.
  if (ownPolicy) writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  execFileSync(aptGet, ['update', '-qq'], { env, stdio: 'inherit' });
  execFileSync(aptGet, ['install', '-y', '-qq', ...missing.map((need) => need.package)], { env, stdio: ['ignore', 'ignore', 'inherit'] });
} catch {
  console.error(`test-needs: apt-get could not install ${packages}; install them, then npm test again.`);
  process.exit(1);
} finally {
  if (ownPolicy) rmSync(policy, { force: true });
}
const still = missing.filter((need) => !need.present());
if (still.length > 0) {
  console.error(`test-needs: still missing after apt-get: ${still.map((need) => need.name).join(', ')}`);
  process.exit(1);
}
