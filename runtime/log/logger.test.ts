import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createLogger,
  InvalidLogLevelError,
  loggerFor,
  memoryDestination,
  newReconcileID,
  parseLogLevel,
  rootLogger,
  setRootLogger,
  silenceLogs,
} from './index.js';

describe('log', () => {
  const savedEnv = process.env['LOG_LEVEL'];
  afterEach(() => {
    if (savedEnv === undefined) delete process.env['LOG_LEVEL'];
    else process.env['LOG_LEVEL'] = savedEnv;
  });

  it('writes to stdout before the call returns, so a process killed right after still said it', () => {
    const logger = fileURLToPath(new URL('./logger.ts', import.meta.url));
    const register = fileURLToPath(new URL('../testing/register.mjs', import.meta.url));
    const script =
      `const { createLogger } = await import(${JSON.stringify(logger)}); const log = ` +
      `createLogger({ level: 'info' }); for (let i = 0; i < 50; i++) log.info({ i }, 'last ` +
      `words'); process.kill(process.pid, 'SIGKILL');`;
    const child = spawnSync(process.execPath, ['--import', register, '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(child.signal).toBe('SIGKILL');
    const lines = child.stdout.trim().split('\n');
    expect(lines).toHaveLength(50);
    expect(JSON.parse(lines[49]!)).toMatchObject({ level: 'info', msg: 'last words', i: 49 });
  });

  it('writes one JSON object per line with level label, ISO time and message', () => {
    const dest = memoryDestination();
    const log = createLogger({ level: 'info', destination: dest });
    log.info({ replicas: 3 }, 'scaled');
    const [rec] = dest.records();
    expect(rec).toMatchObject({ level: 'info', msg: 'scaled', replicas: 3 });
    expect(Date.parse(String(rec?.['time']))).not.toBeNaN();
    expect(rec).not.toHaveProperty('pid');
  });

  it('filters below the configured level', () => {
    const dest = memoryDestination();
    const log = createLogger({ level: 'warn', destination: dest });
    log.info('dropped');
    log.warn('kept');
    expect(dest.records().map((r) => r['msg'])).toEqual(['kept']);
  });

  it('takes the level from LOG_LEVEL when no option is given', () => {
    process.env['LOG_LEVEL'] = 'DEBUG';
    const dest = memoryDestination();
    createLogger({ destination: dest }).debug('visible');
    expect(dest.records()).toHaveLength(1);
  });

  it('rejects an unknown level', () => {
    expect(() => parseLogLevel('verbose')).toThrow(InvalidLogLevelError);
    expect(parseLogLevel(' Trace ')).toBe('trace');
  });

  it('loggerFor puts controller, namespace, name and reconcileID on every line, skipping empty ones', () => {
    const dest = memoryDestination();
    const parent = createLogger({ level: 'info', destination: dest });
    const id = newReconcileID();
    const log = loggerFor({ controller: 'memcached', namespace: 'ns1', name: 'a', reconcileID: id }, parent);
    log.info('one');
    log.info('two');
    loggerFor({ controller: 'memcached', namespace: undefined, name: 'cluster-obj' }, parent).info('three');
    const recs = dest.records();
    expect(recs[0]).toMatchObject({ controller: 'memcached', namespace: 'ns1', name: 'a', reconcileID: id });
    expect(recs[1]).toMatchObject({ reconcileID: id });
    expect(recs[2]).not.toHaveProperty('namespace');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(newReconcileID()).not.toBe(id);
  });

  it('silenceLogs mutes the root logger and its later children', () => {
    const dest = memoryDestination();
    const previous = rootLogger();
    setRootLogger(createLogger({ level: 'info', destination: dest }));
    try {
      rootLogger().info('before');
      silenceLogs();
      rootLogger().error('after');
      loggerFor({ controller: 'c' }).error('child after');
      expect(dest.records().map((r) => r['msg'])).toEqual(['before']);
    } finally {
      setRootLogger(previous);
    }
  });
});
