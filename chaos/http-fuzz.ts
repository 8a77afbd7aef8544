// Hostile HTTP requests on every route: none may fail with a 5xx or change the database; each
// answer should be in the HttpError shape (counted, so a route that answers otherwise shows).
import { request } from 'node:http';
import { ERROR_STATUS, httpError } from '../contract/index.js';
import { dumpDatabase, type ServerProcess } from './process.js';
import type { Random } from './random.js';
import { newPlayer } from './setup.js';

const ROUTES = [
  'GET /api/health',
  'POST /api/players',
  'GET /api/me',
  'POST /api/races',
  'GET /api/races/:code',
  'POST /api/races/:code/join',
  'POST /api/races/:code/start',
  'POST /api/races/:code/leave',
  'POST /api/races/:code/kick',
  'POST /api/races/:code/cancel',
  'POST /api/races/:code/rematch',
  'GET /api/races/:code/replay',
  'GET /api/daily',
  'GET /api/daily/:day',
  'POST /api/daily/start',
  'GET /api/daily/:day/leaderboard',
  'GET /api/games/:id',
  'GET /api/games/:id/record',
  'GET /api/me/games',
  'GET /api/players/:id/stats',
  'GET /api/ready',
  'GET /api/openapi.json',
  'GET /ws',
];
const PARAMS = ['', 'x'.repeat(300), '%C0%AE%C0%AE', '%00', '..%2F..%2Fetc', '%', '%zz', '%C3%A9', '1e9', '-1', '0x10', 'null', '__proto__', 'ZZZZZZ', '2026-02-30', '99999999999999999999'];
const QUERIES = ['', '?token=a&token=b', '?page=-1', '?page=a&page=b', '?limit=1e9', '?%zz=1', '?__proto__[x]=1', '?offset=1&offset=2', `?${'q'.repeat(5000)}=1`];
const BODIES = ['{', 'null', '[]', '"x"', '{"name":1}', `{"name":"${'n'.repeat(500)}"}`, '{"__proto__":{"admin":true}}', '{"seats":1e309}', '{"seats":"8"}', '[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]', 'x'.repeat(20_000), '{"variant":"toString"}'];
const CONTENT_TYPES = ['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'multipart/form-data'];
const OTHER_METHODS = ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE'];

interface Probe {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

function probes(random: Random, validToken: string): Probe[] {
  const list: Probe[] = [];
  const auths = ['Bearer', `Bearer ${'x'.repeat(200)}`, 'Basic YTpi', 'Bearer not-a-real-token', 'Bearer a b'];
  for (const route of ROUTES) {
    const [method, template] = route.split(' ') as [string, string];
    const hasParam = template.includes(':');
    const paths = hasParam ? PARAMS.map((value) => template.replace(/:\w+/, value)) : [template];
    for (const path of paths) {
      for (const query of QUERIES) list.push({ method, path: path + query, headers: {} });
      for (const auth of auths) list.push({ method, path, headers: { authorization: auth } });
      // A real token only where the request changes nothing (a read, or a write that must be refused).
      if (method === 'GET' || hasParam) list.push({ method, path, headers: { authorization: `Bearer ${validToken}` } });
      if (method === 'POST') {
        for (const body of BODIES) {
          const headers: Record<string, string> = { 'content-type': random.pick(CONTENT_TYPES) };
          if (template !== '/api/players') headers.authorization = random.pick([`Bearer ${validToken}`, ...auths]);
          // A valid player token with a body only where every body here is invalid for the route.
          if (template === '/api/daily/start' && headers.authorization === `Bearer ${validToken}`) headers.authorization = auths[3]!;
          list.push({ method, path, headers, body });
        }
      }
    }
    for (const other of OTHER_METHODS) list.push({ method: other, path: template, headers: {} });
  }
  return list;
}

interface Answer {
  status: number;
  body: string;
}

function send(port: number, probe: Probe): Promise<Answer | 'not sent'> {
  return new Promise((resolve) => {
    try {
      const req = request({ host: '127.0.0.1', port, method: probe.method, path: probe.path, headers: probe.headers, timeout: 5000 }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', () => resolve({ status: 0, body: '' }));
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve({ status: 0, body: '' }));
      req.end(probe.body);
    } catch {
      // The client itself refuses some paths (unescaped characters): nothing reached the server.
      resolve('not sent');
    }
  });
}

/** The contract's error shape, with the status its code has. */
const inShape = (answer: Answer): boolean => {
  try {
    const body = httpError.safeParse(JSON.parse(answer.body));
    return body.success && body.data.statusCode === answer.status && ERROR_STATUS[body.data.code] === answer.status;
  } catch {
    return false;
  }
};

export async function httpFuzz(server: ServerProcess, dataDir: string, random: Random, rounds: number): Promise<string> {
  const player = await newPlayer(server.base, 'Fuzz');
  const before = dumpDatabase(dataDir);
  const list: Probe[] = [];
  for (let round = 0; round < rounds; round++) list.push(...probes(random, player.token));
  let next = 0;
  let sent = 0;
  let serverErrors = 0;
  const failing = new Set<string>();
  let unanswered = 0;
  const offShape = new Map<string, number>();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < list.length) {
        const probe = list[next++]!;
        const answer = await send(server.port, probe);
        if (answer === 'not sent') continue;
        sent++;
        if (answer.status === 0) unanswered++;
        else if (answer.status >= 500) {
          serverErrors++;
          failing.add(`${probe.method} ${probe.path.slice(0, 60)}`);
        }
        else if (answer.status >= 400 && !inShape(answer)) offShape.set(String(answer.status), (offShape.get(String(answer.status)) ?? 0) + 1);
      }
    }),
  );
  const changed = dumpDatabase(dataDir) === before ? 0 : 1;
  const shapes = [...offShape].map(([status, n]) => `${n}×${status}`).join(' ') || 'none';
  return `${sent} hostile requests on ${ROUTES.length} routes, ${serverErrors} 5xx, ${unanswered} unanswered, ${changed} state changes; errors outside the HttpError shape: ${shapes}${failing.size > 0 ? `; 5xx on ${[...failing].slice(0, 3).join(', ')}` : ''}`;
}
