// A fresh, empty PostgreSQL database per test file on the test cluster (test/services.ts).
import { randomBytes } from 'node:crypto';
import pg from 'pg';

function testClusterUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: the test setup (test/services.ts) starts PostgreSQL');
  return url;
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = testClusterUrl();
  const name = `lucie_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** A query as PostgreSQL would run it: its text and its plan's nodes, outermost first ("Index Only Scan using games_daily_board on games"). */
export interface PlannedQuery {
  text: string;
  nodes: string[];
  /** What reads all of `table`'s matching rows: a sequential scan of it, or a sort not under a limit (a sort of a page is fine). */
  fullReads(table: string): string[];
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

const describeNode = (node: PlanNode): string[] => [
  [node['Node Type'], node['Index Name'] && `using ${node['Index Name']}`, node['Relation Name'] && `on ${node['Relation Name']}`].filter(Boolean).join(' '),
  ...(node.Plans ?? []).flatMap(describeNode),
];

const within = (node: PlanNode, test: (node: PlanNode) => boolean): boolean => test(node) || (node.Plans ?? []).some((child) => within(child, test));

function fullReadsOf(node: PlanNode, table: string): string[] {
  if (node['Node Type'] === 'Seq Scan' && node['Relation Name'] === table) return [`Seq Scan on ${table}`];
  const children = (node.Plans ?? []).flatMap((child) => fullReadsOf(child, table));
  // A sort of rows of the table with no limit under it sorts all of them; above a limit it sorts a page.
  const sortsAll = node['Node Type'] === 'Sort' && within(node, (child) => child['Relation Name'] === table) && !within(node, (child) => child['Node Type'] === 'Limit');
  return sortsAll ? [`Sort of ${table}`, ...children] : children;
}

/**
 * Every query `run` sends through `pool`, with the plan PostgreSQL makes for it with the same
 * values. `settings` (e.g. `enable_seqscan = off`) apply to the planning connection only: with
 * scans and sorts priced out, a plan that still has one has no index to serve it.
 */
export async function pgPlansOf(pool: pg.Pool, run: () => Promise<unknown>, settings: string[] = []): Promise<PlannedQuery[]> {
  const sent: { text: string; values: unknown[] }[] = [];
  const query = pool.query.bind(pool) as (config: string | pg.QueryConfig, values?: unknown[]) => Promise<pg.QueryResult>;
  pool.query = ((config: string | pg.QueryConfig, values?: unknown[]) => {
    const text = typeof config === 'string' ? config : config.text;
    sent.push({ text, values: values ?? (typeof config === 'string' ? [] : (config.values ?? [])) });
    return query(config, values);
  }) as typeof pool.query;
  try {
    await run();
  } finally {
    // The wrapper shadowed the prototype's method: removing it restores the pool.
    delete (pool as { query?: unknown }).query;
  }
  const client = await pool.connect();
  try {
    for (const setting of settings) await client.query(`set ${setting}`);
    const planned: PlannedQuery[] = [];
    for (const { text, values } of sent) {
      const { rows } = await client.query(`explain (format json) ${text}`, values);
      const plan = (rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan;
      planned.push({ text, nodes: describeNode(plan), fullReads: (table) => fullReadsOf(plan, table) });
    }
    for (const setting of settings) await client.query(`reset ${setting.split('=')[0]!.trim()}`);
    return planned;
  } finally {
    client.release();
  }
}
