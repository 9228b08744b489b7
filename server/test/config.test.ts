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

describe('loadConfig (issue 15: proxy mode and API_ORIGINS)', () => {
  it('reads UPSTREAM_API_URL without its trailing slash, UPSTREAM_TIMEOUT_MS (30000) and API_ORIGINS as origins', () => {
    expect(loadConfig({})).toMatchObject({ upstreamApiUrl: undefined, upstreamTimeoutMs: 30_000, apiOrigins: [] });
    expect(loadConfig({ UPSTREAM_API_URL: 'https://api.example.com/' }).upstreamApiUrl).toBe('https://api.example.com');
    expect(loadConfig({ UPSTREAM_API_URL: 'http://127.0.0.1:8080/api/', UPSTREAM_TIMEOUT_MS: '500' })).toMatchObject({ upstreamApiUrl: 'http://127.0.0.1:8080/api', upstreamTimeoutMs: 500 });
    expect(loadConfig({ API_ORIGINS: ' https://api.example.com, http://10.0.0.5:8080/ ,HTTPS://API.Other.test:443' }).apiOrigins).toEqual([
      'https://api.example.com',
      'http://10.0.0.5:8080',
      'https://api.other.test',
    ]);
  });

  it.each([
    [{ UPSTREAM_API_URL: 'api.example.com' }, "UPSTREAM_API_URL must be an absolute http:// or https:// URL without credentials, query or fragment, such as https://api.example.com or http://127.0.0.1:8080/api; got 'api.example.com'"],
    [{ UPSTREAM_API_URL: 'ftp://api.example.com' }, 'UPSTREAM_API_URL must be an absolute http:// or https:// URL'],
    [{ UPSTREAM_API_URL: 'https://user:s3cret@api.example.com' }, 'UPSTREAM_API_URL must be an absolute http:// or https:// URL'],
    [{ UPSTREAM_API_URL: 'https://api.example.com/api?x=1' }, 'UPSTREAM_API_URL must be an absolute http:// or https:// URL'],
    [{ UPSTREAM_TIMEOUT_MS: 'soon' }, "UPSTREAM_TIMEOUT_MS must be an integer from 0 to 3600000, got 'soon'"],
    [{ API_ORIGINS: 'https://api.example.com/api' }, "API_ORIGINS must list origins such as https://api.example.com or http://10.0.0.5:8080 (scheme, host, optional port; no path), separated by commas; got 'https://api.example.com/api'"],
    [{ API_ORIGINS: '*' }, "got '*'"],
    [{ API_ORIGINS: 'https://*.example.com' }, "got 'https://*.example.com'"],
    [{ API_ORIGINS: "'self'" }, "got ''self''"],
    [{ API_ORIGINS: 'javascript:alert(1)' }, "got 'javascript:alert(1)'"],
    [{ API_ORIGINS: 'https://a.test; script-src *' }, "got 'https://a.test; script-src *'"],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
    expect(() => loadConfig(env)).not.toThrow(/s3cret/);
  });
});

describe('loadConfig (issue 12: connection timeouts)', () => {
  it('reads the four timeouts in milliseconds, with 10 s, 30 s, 72 s and 60 s by default and 0 allowed', () => {
    expect(loadConfig({}).timeouts).toEqual({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 72_000, idleMs: 60_000 });
    expect(loadConfig({}).exportConcurrency).toBe(3); // issue 21 point 2: a team of three exporting at once
    expect(loadConfig({ EXPORT_CONCURRENCY: '1' }).exportConcurrency).toBe(1);
    expect(loadConfig({ HEADERS_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '0', KEEP_ALIVE_TIMEOUT_MS: '5000', IDLE_TIMEOUT_MS: '0' }).timeouts).toEqual({
      headersMs: 2000,
      requestMs: 0,
      keepAliveMs: 5000,
      idleMs: 0,
    });
  });

  it.each([
    [{ HEADERS_TIMEOUT_MS: '10s' }, "HEADERS_TIMEOUT_MS must be an integer from 0 to 86400000, got '10s'"],
    [{ IDLE_TIMEOUT_MS: '-1' }, "IDLE_TIMEOUT_MS must be an integer from 0 to 86400000, got '-1'"],
    [{ HEADERS_TIMEOUT_MS: '40000', REQUEST_TIMEOUT_MS: '30000' }, 'HEADERS_TIMEOUT_MS (40000) must not be greater than REQUEST_TIMEOUT_MS (30000)'],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
