// The cluster flags (server/config.ts): --cluster takes nats:// URLs, --cluster-stream a JetStream stream
// name, --cluster-seed a peer's http(s) URL; bad values are refused with the flag's name and the value, before anything starts.

import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.js';

function cluster(argv: string[], env: Record<string, string> = {}): unknown {
  const loaded = loadConfig(argv, env, '/srv');
  return loaded.kind === 'config' ? loaded.config.cluster : loaded;
}

const day = 86_400_000;

describe('cluster flags', () => {
  it('off without --cluster; URLs split on commas; the stream graphdb by default', () => {
    expect(cluster([])).toBeUndefined();
    expect(cluster(['--cluster', 'nats://a:4222, nats://127.0.0.1:4223'])).toEqual({ servers: ['nats://a:4222', 'nats://127.0.0.1:4223'], stream: 'graphdb', nodeMaxAgeMs: day });
    expect(cluster([], { SERVICE_CLUSTER: 'nats://h:1', SERVICE_CLUSTER_STREAM: 'orders_2' })).toEqual({ servers: ['nats://h:1'], stream: 'orders_2', nodeMaxAgeMs: day });
    // The ACL's defaults go through the shared log (test/cluster/cluster-acl.test.ts).
    expect(cluster(['--cluster', 'nats://a:1', '--acl-secret-file', 'k'])).toEqual({ servers: ['nats://a:1'], stream: 'graphdb', nodeMaxAgeMs: day });
  });

  it('refuses what is not nats://host:port, a stream name NATS cannot take, a stream without a cluster', () => {
    expect(cluster(['--cluster', 'http://a:4222'])).toEqual({ kind: 'error', message: '--cluster takes nats://host:port[,...], got "http://a:4222"' });
    expect(cluster(['--cluster', 'nats://a:4222,'])).toEqual({ kind: 'error', message: '--cluster takes nats://host:port[,...], got ""' });
    expect(cluster(['--cluster', 'nats://a:1', '--cluster-stream', 'a.b'])).toEqual({ kind: 'error', message: `--cluster-stream may hold only letters, digits, '-' and '_' (at most 64), got "a.b"` });
    expect(cluster(['--cluster-stream', 's'])).toEqual({ kind: 'error', message: '--cluster-stream needs --cluster' });
  });

  it('--cluster-seed: an http(s) URL, only with --cluster', () => {
    expect(cluster(['--cluster', 'nats://a:1', '--cluster-seed', 'http://peer:8080'])).toEqual({ servers: ['nats://a:1'], stream: 'graphdb', seed: 'http://peer:8080', nodeMaxAgeMs: day });
    expect(cluster(['--cluster', 'nats://a:1'], { SERVICE_CLUSTER_SEED: 'https://peer' })).toEqual({ servers: ['nats://a:1'], stream: 'graphdb', seed: 'https://peer', nodeMaxAgeMs: day });
    expect(cluster(['--cluster', 'nats://a:1', '--cluster-seed', 'peer:8080'])).toEqual({ kind: 'error', message: '--cluster-seed must use http or https, got "peer:8080"' });
    expect(cluster(['--cluster', 'nats://a:1', '--cluster-seed', 'not a url'])).toEqual({ kind: 'error', message: '--cluster-seed must be an absolute http(s) URL, got "not a url"' });
    expect(cluster(['--cluster-seed', 'http://peer:8080'])).toEqual({ kind: 'error', message: '--cluster-seed needs --cluster' });
  });

  it('--cluster-advertise: an http(s) URL; --cluster-node-max-age: a duration of at least 1s, a day by default; both only with --cluster', () => {
    expect(cluster(['--cluster', 'nats://a:1', '--cluster-advertise', 'http://10.0.0.5:8080', '--cluster-node-max-age', '3s'])).toEqual({
      servers: ['nats://a:1'],
      stream: 'graphdb',
      advertise: 'http://10.0.0.5:8080',
      nodeMaxAgeMs: 3000,
    });
    expect(cluster(['--cluster', 'nats://a:1'], { SERVICE_CLUSTER_NODE_MAX_AGE: '12h' })).toEqual({ servers: ['nats://a:1'], stream: 'graphdb', nodeMaxAgeMs: 12 * 3_600_000 });
    expect(cluster(['--cluster', 'nats://a:1', '--cluster-advertise', 'host:8080'])).toEqual({ kind: 'error', message: '--cluster-advertise must use http or https, got "host:8080"' });
    expect(cluster(['--cluster', 'nats://a:1', '--cluster-node-max-age', '500ms'])).toEqual({
      kind: 'error',
      message: '--cluster-node-max-age must be a duration of at least 1s such as 30m, 6h or 30d, got "500ms"',
    });
    expect(cluster(['--cluster-advertise', 'http://h:1'])).toEqual({ kind: 'error', message: '--cluster-advertise needs --cluster' });
    expect(cluster(['--cluster-node-max-age', '1h'])).toEqual({ kind: 'error', message: '--cluster-node-max-age needs --cluster' });
  });

  it('--cluster-pipeline: 1-8 groups in flight, absent by default (one at a time), only with --cluster', () => {
    expect(cluster(['--cluster', 'nats://a:1', '--cluster-pipeline', '4'])).toEqual({ servers: ['nats://a:1'], stream: 'graphdb', nodeMaxAgeMs: day, pipeline: 4 });
    expect(cluster(['--cluster', 'nats://a:1'], { SERVICE_CLUSTER_PIPELINE: '2' })).toEqual({ servers: ['nats://a:1'], stream: 'graphdb', nodeMaxAgeMs: day, pipeline: 2 });
    expect(cluster(['--cluster', 'nats://a:1', '--cluster-pipeline', '9'])).toMatchObject({ kind: 'error', message: expect.stringMatching(/^--cluster-pipeline .*9/) });
    expect(cluster(['--cluster-pipeline', '2'])).toEqual({ kind: 'error', message: '--cluster-pipeline needs --cluster' });
  });

  it('--read-after-timeout-ms: 10 s by default, at least 1 ms', () => {
    const timeout = (argv: string[]): unknown => {
      const loaded = loadConfig(argv, {}, '/srv');
      return loaded.kind === 'config' ? loaded.config.readAfterTimeoutMs : loaded;
    };
    expect(timeout([])).toBe(10_000);
    expect(timeout(['--read-after-timeout-ms', '250'])).toBe(250);
    expect(timeout(['--read-after-timeout-ms', '0'])).toEqual({ kind: 'error', message: expect.stringContaining('--read-after-timeout-ms') });
  });
});
