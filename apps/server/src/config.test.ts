import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('stops on a wrong value with a message naming it', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET/);
  });

  it('generates a JWT secret once and keeps it under the data dir', () => {
    const dir = mkdtempSync(join(tmpdir(), 'herald-config-'));
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(second.JWT_SECRET).toBe(first.JWT_SECRET);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8').trim()).toBe(first.JWT_SECRET);
  });

  it('generates the credential key once beside it, apart from the JWT secret, unless one is set', () => {
    const dir = mkdtempSync(join(tmpdir(), 'herald-config-'));
    const first = loadConfig({ DATA_DIR: dir });
    expect(loadConfig({ DATA_DIR: dir }).HERALD_SECRET_KEY).toBe(first.HERALD_SECRET_KEY);
    expect(readFileSync(join(dir, 'secret-key'), 'utf8').trim()).toBe(first.HERALD_SECRET_KEY);
    expect(first.HERALD_SECRET_KEY).not.toBe(first.JWT_SECRET);
    const key = 'k'.repeat(40);
    expect(loadConfig({ DATA_DIR: dir, HERALD_SECRET_KEY: key }).HERALD_SECRET_KEY).toBe(key);
    expect(() => loadConfig({ DATA_DIR: dir, HERALD_SECRET_KEY: 'short' })).toThrow(/HERALD_SECRET_KEY/);
  });

  it('defaults to the embedded database on port 3000', () => {
    const c = loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'herald-config-')) });
    expect(c.PORT).toBe(3000);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.APP_URL).toBe('http://localhost:3000');
  });
});
