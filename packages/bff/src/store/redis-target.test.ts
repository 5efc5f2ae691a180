/**
 * The Redis a process's environment names: one server by URL, a primary through its Sentinels with the
 * primary's password, database and TLS from their own variables, or a Redis Cluster from some of its nodes (and,
 * behind NAT, where to reach the addresses its nodes announce); a
 * setting that cannot work is refused with a message that names the variable; the log line never holds a password.
 */
import { describe, expect, it } from 'vitest';
import { describeRedisTarget, RedisSettingError, redisTargetFromEnvironment } from './redis-target';

describe('the Redis target of an environment', () => {
  it('is none without a Redis variable, and one server for a URL', () => {
    expect(redisTargetFromEnvironment({})).toBeNull();
    const target = redisTargetFromEnvironment({
      ESIM_BFF_REDIS_URL: 'rediss://:s3cret@cache.internal:6380/2',
    });
    expect(target).toEqual({ kind: 'url', url: 'rediss://:s3cret@cache.internal:6380/2' });
    expect(describeRedisTarget(target as NonNullable<typeof target>)).toBe('rediss://cache.internal:6380/2');
  });

  it('is the primary of Sentinels, with its password, database and TLS', () => {
    const target = redisTargetFromEnvironment({
      ESIM_BFF_REDIS_SENTINELS: '10.0.0.5:26379, sentinel-b.internal:26380,[fd00::7]:26379',
      ESIM_BFF_REDIS_MASTER_NAME: 'esim',
      ESIM_BFF_REDIS_PASSWORD: 'primary-secret',
      ESIM_BFF_REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
      ESIM_BFF_REDIS_DB: '3',
      ESIM_BFF_REDIS_TLS: 'true',
    });
    expect(target).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: '10.0.0.5', port: 26379 },
        { host: 'sentinel-b.internal', port: 26380 },
        { host: 'fd00::7', port: 26379 },
      ],
      masterName: 'esim',
      password: 'primary-secret',
      username: undefined,
      sentinelPassword: 'sentinel-secret',
      db: 3,
      tls: true,
    });
    const line = describeRedisTarget(target as NonNullable<typeof target>);
    expect(line).toBe('sentinel://10.0.0.5:26379,sentinel-b.internal:26380,[fd00::7]:26379/esim/3 (TLS)');
    expect(line).not.toContain('secret');
  });

  it('is a Redis Cluster from some of its nodes, with the password, user and TLS', () => {
    const target = redisTargetFromEnvironment({
      ESIM_BFF_REDIS_CLUSTER_NODES: '10.0.0.5:6379,clustercfg.esim.cache.amazonaws.com:6380, [fd00::7]:6379',
      ESIM_BFF_REDIS_PASSWORD: 'cluster-secret',
      ESIM_BFF_REDIS_USERNAME: 'esim',
      ESIM_BFF_REDIS_TLS: 'true',
    });
    expect(target).toEqual({
      kind: 'cluster',
      nodes: [
        { host: '10.0.0.5', port: 6379 },
        { host: 'clustercfg.esim.cache.amazonaws.com', port: 6380 },
        { host: 'fd00::7', port: 6379 },
      ],
      password: 'cluster-secret',
      username: 'esim',
      tls: true,
    });
    const line = describeRedisTarget(target as NonNullable<typeof target>);
    expect(line).toBe(
      'cluster://10.0.0.5:6379,clustercfg.esim.cache.amazonaws.com:6380,[fd00::7]:6379 (TLS)',
    );
    expect(line).not.toContain('secret');
  });

  it('maps the addresses a cluster behind NAT announces to those the BFF can reach', () => {
    const target = redisTargetFromEnvironment({
      ESIM_BFF_REDIS_CLUSTER_NODES: '203.0.113.1:7000',
      ESIM_BFF_REDIS_CLUSTER_NAT_MAP:
        '10.0.0.1:6379=203.0.113.1:7000, 10.0.0.2:6379 = 203.0.113.1:7001,[fd00::3]:6379=redis-c.example:7002',
    });
    expect(target).toMatchObject({
      kind: 'cluster',
      natMap: {
        '10.0.0.1:6379': { host: '203.0.113.1', port: 7000 },
        '10.0.0.2:6379': { host: '203.0.113.1', port: 7001 },
        // As ioredis names a node announced at an IPv6 address: without brackets.
        'fd00::3:6379': { host: 'redis-c.example', port: 7002 },
      },
    });
    expect(describeRedisTarget(target as NonNullable<typeof target>)).toBe(
      'cluster://203.0.113.1:7000 (NAT map: 3 addresses)',
    );
    expect(redisTargetFromEnvironment({ ESIM_BFF_REDIS_CLUSTER_NODES: '10.0.0.5:6379' })).not.toHaveProperty(
      'natMap',
    );
  });

  it.each([
    [{ ESIM_BFF_REDIS_URL: 'redis://a:6379', ESIM_BFF_REDIS_SENTINELS: 'b:26379' }, /both set/],
    [
      { ESIM_BFF_REDIS_URL: 'redis://a:6379', ESIM_BFF_REDIS_CLUSTER_NAT_MAP: 'a:1=b:2' },
      /ESIM_BFF_REDIS_CLUSTER_NAT_MAP is set without ESIM_BFF_REDIS_CLUSTER_NODES/,
    ],
    [
      { ESIM_BFF_REDIS_CLUSTER_NODES: 'c:1', ESIM_BFF_REDIS_CLUSTER_NAT_MAP: '10.0.0.1:6379' },
      /ESIM_BFF_REDIS_CLUSTER_NAT_MAP: '10.0.0.1:6379' is not announced=reachable/,
    ],
    [
      { ESIM_BFF_REDIS_CLUSTER_NODES: 'c:1', ESIM_BFF_REDIS_CLUSTER_NAT_MAP: 'a:1=b:2=c:3' },
      /is not announced=reachable/,
    ],
    [
      { ESIM_BFF_REDIS_CLUSTER_NODES: 'c:1', ESIM_BFF_REDIS_CLUSTER_NAT_MAP: 'a:1=b:2,' },
      /ESIM_BFF_REDIS_CLUSTER_NAT_MAP: '' is not announced=reachable/,
    ],
    [
      { ESIM_BFF_REDIS_CLUSTER_NODES: 'c:1', ESIM_BFF_REDIS_CLUSTER_NAT_MAP: '10.0.0.1:6379=b' },
      /ESIM_BFF_REDIS_CLUSTER_NAT_MAP: 'b' is not host:port/,
    ],
    [
      { ESIM_BFF_REDIS_CLUSTER_NODES: 'c:1', ESIM_BFF_REDIS_CLUSTER_NAT_MAP: 'a:1=b:2,a:1=b:3' },
      /ESIM_BFF_REDIS_CLUSTER_NAT_MAP: 'a:1' is mapped twice/,
    ],
    [
      { ESIM_BFF_REDIS_URL: 'redis://a:6379', ESIM_BFF_REDIS_CLUSTER_NODES: 'b:6379' },
      /ESIM_BFF_REDIS_URL and ESIM_BFF_REDIS_CLUSTER_NODES are both set/,
    ],
    [
      {
        ESIM_BFF_REDIS_SENTINELS: 'b:26379',
        ESIM_BFF_REDIS_MASTER_NAME: 'm',
        ESIM_BFF_REDIS_CLUSTER_NODES: 'c:1',
      },
      /ESIM_BFF_REDIS_SENTINELS and ESIM_BFF_REDIS_CLUSTER_NODES are both set/,
    ],
    [{ ESIM_BFF_REDIS_CLUSTER_NODES: 'c:1,c' }, /ESIM_BFF_REDIS_CLUSTER_NODES: 'c' is not host:port/],
    [{ ESIM_BFF_REDIS_CLUSTER_NODES: 'c:1', ESIM_BFF_REDIS_DB: '2' }, /a Redis Cluster has only database 0/],
    [{ ESIM_BFF_REDIS_CLUSTER_NODES: 'c:1', ESIM_BFF_REDIS_TLS: 'on' }, /ESIM_BFF_REDIS_TLS/],
    [{ ESIM_BFF_REDIS_SENTINELS: 'b:26379' }, /ESIM_BFF_REDIS_MASTER_NAME/],
    [
      { ESIM_BFF_REDIS_SENTINELS: 'b', ESIM_BFF_REDIS_MASTER_NAME: 'esim' },
      /ESIM_BFF_REDIS_SENTINELS: 'b' is not host:port/,
    ],
    [{ ESIM_BFF_REDIS_SENTINELS: 'b:99999', ESIM_BFF_REDIS_MASTER_NAME: 'esim' }, /not host:port/],
    [
      { ESIM_BFF_REDIS_SENTINELS: 'b:1', ESIM_BFF_REDIS_MASTER_NAME: 'm', ESIM_BFF_REDIS_DB: 'x' },
      /ESIM_BFF_REDIS_DB/,
    ],
    [
      { ESIM_BFF_REDIS_SENTINELS: 'b:1', ESIM_BFF_REDIS_MASTER_NAME: 'm', ESIM_BFF_REDIS_TLS: 'yes' },
      /ESIM_BFF_REDIS_TLS/,
    ],
  ])('refuses %o, naming the variable', (env, message) => {
    expect(() => redisTargetFromEnvironment(env)).toThrow(RedisSettingError);
    expect(() => redisTargetFromEnvironment(env)).toThrow(message);
  });
});
