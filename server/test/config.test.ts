/**
 * The environment of issue 8 in server/config.ts: `REDIS_URL`, `SCHEDULER_INTERVAL_MS` and `TRUST_PROXY`, read
 * once and refused at start when malformed (a secret in a bad REDIS_URL is never echoed).
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';

describe('loadConfig (issue 8 variables)', () => {
  it('reads REDIS_URL and SCHEDULER_INTERVAL_MS, with no Redis and a 1000 ms job by default', () => {
    expect(loadConfig({})).toMatchObject({ redisUrl: undefined, schedulerIntervalMs: 1000, trustProxy: [] });
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, 127.0.0.1 ,fd00::/8,loopback' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1', 'fd00::/8', 'loopback']);
    expect(loadConfig({ REDIS_URL: 'rediss://user:pw@cache.internal:6380/2', SCHEDULER_INTERVAL_MS: '0' })).toMatchObject({
      redisUrl: 'rediss://user:pw@cache.internal:6380/2',
      schedulerIntervalMs: 0,
    });
  });

  it.each([
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL must be a redis:// or rediss:// URL'],
    [{ REDIS_URL: 'redis://user:s3cret@[bad' }, 'REDIS_URL must be a redis:// or rediss:// URL'],
    [{ SCHEDULER_INTERVAL_MS: '-5' }, "SCHEDULER_INTERVAL_MS must be an integer from 0 to 3600000, got '-5'"],
    [{ SCHEDULER_INTERVAL_MS: '1.5' }, "SCHEDULER_INTERVAL_MS must be an integer from 0 to 3600000, got '1.5'"],
    [{ TRUST_PROXY: 'true' }, "TRUST_PROXY must list IP addresses, CIDRs or loopback/linklocal/uniquelocal, separated by commas; got 'true'"],
    [{ TRUST_PROXY: '10.0.0.0/33' }, "got '10.0.0.0/33'"],
    [{ TRUST_PROXY: '2' }, "got '2'"],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
    expect(() => loadConfig(env)).not.toThrow(/s3cret/);
  });
});
