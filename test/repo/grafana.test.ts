// The sample Grafana dashboard (deploy/grafana-dashboard.json) plots only figures /metrics serves.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Metrics } from '../../server/metrics.js';

describe('deploy/grafana-dashboard.json', () => {
  it('names no metric that the server does not export', async () => {
    const dashboard = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'deploy', 'grafana-dashboard.json'), 'utf8'));
    const metrics = new Metrics({ openSockets: () => 0, playersOnline: () => 0, racesByState: () => ({}), analysisQueue: () => 0, pool: () => [], backupAgeSeconds: () => 1 });
    const exported = new Set((await metrics.registry.getMetricsAsJSON()).map((metric) => metric.name));
    const used = new Set<string>();
    for (const panel of dashboard.panels) {
      for (const target of panel.targets) for (const [name] of String(target.expr).matchAll(/\b(?:lucie|nodejs)_[a-z0-9_]+/g)) used.add(name.replace(/_(bucket|sum|count)$/, ''));
    }
    expect(used.size).toBeGreaterThan(8);
    for (const name of used) expect(exported, name).toContain(name);
  });
});
