import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config';
import type { Env } from '../../src/config/env-readers';

// docker-compose.yml checked without Docker (this machine has no compose): the services and how
// they start, the health checks the start order waits on, and that the environment it gives the
// api and the worker is what our config reads, and a valid configuration for each.

const ROOT = join(__dirname, '../..');

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
  ports?: string[];
  volumes?: string[];
}

const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), {
  merge: true,
}) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const { api, worker, postgres, redis } = compose.services;

/** The values an operator exports before `docker compose up` (the README's command). */
const SHELL: Env = {
  JWT_SECRET: 'j'.repeat(64),
  ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64'),
};

/** Compose's interpolation: ${NAME}, ${NAME:-default} and ${NAME:?error}. */
function interpolate(value: string, shell: Env): string {
  return value.replace(
    /\$\{([A-Z_][A-Z0-9_]*)(?::([-?])([^}]*))?\}/g,
    (_, name: string, kind?: string, rest?: string) => {
      const set = shell[name];
      if (set !== undefined && set !== '') return set;
      if (kind === '-') return rest ?? '';
      throw new Error(`docker compose would stop: ${name}: ${rest ?? 'unset'}`);
    },
  );
}

const environmentOf = (service: Service, shell: Env = SHELL): Env =>
  Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([name, value]) => [
      name,
      interpolate(String(value), shell),
    ]),
  );

/** The variables loadConfig looks at, whatever they hold. */
function variablesRead(env: Env, role: 'all' | 'worker'): Set<string> {
  const read = new Set<string>();
  loadConfig(
    new Proxy(env, {
      get: (target, name) => {
        if (typeof name === 'string') read.add(name);
        return target[name as string];
      },
    }),
    role,
  );
  return read;
}

describe('docker-compose.yml', () => {
  it('runs api, worker, PostgreSQL 15 and Redis 7', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['api', 'postgres', 'redis', 'worker']);
    expect(postgres.image).toBe('postgres:15');
    expect(redis.image).toBe('redis:7');
    // One image built from this repository, two entry points (see the Dockerfile).
    expect(api).toMatchObject({ build: '.', image: 'switchboard:local' });
    expect(worker).toMatchObject({ build: '.', image: api.image });
    expect(api.command).toBeUndefined();
    expect(worker.command).toEqual(['node', '--max-semi-space-size=64', 'dist/bundle/worker.js']);
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain('CMD ["node", "dist/bundle/main.js"]');
    expect(dockerfile).toContain('/health/ready');
  });

  it('starts the app once PostgreSQL and Redis are healthy', () => {
    expect(postgres.healthcheck?.test?.join(' ')).toContain('pg_isready');
    expect(redis.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
    for (const app of [api, worker]) {
      expect(app.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
    }
    // The image's health check probes HTTP, which only the api serves.
    expect(worker.healthcheck).toEqual({ disable: true });
    expect(api.ports).toEqual(['3000:3000']);
  });

  it('points the app at the postgres and redis services with their credentials', () => {
    const env = environmentOf(api);
    const database = new URL(env.DATABASE_URL!);
    expect(database.hostname).toBe('postgres');
    expect(decodeURIComponent(database.username)).toBe(postgres.environment?.POSTGRES_USER);
    expect(database.pathname).toBe(`/${postgres.environment?.POSTGRES_DB}`);
    expect(decodeURIComponent(database.password)).toBe(
      interpolate(postgres.environment!.POSTGRES_PASSWORD, SHELL),
    );
    expect(new URL(env.REDIS_URL!).hostname).toBe('redis');
  });

  it('sets only variables our config reads, and they load for the api and the worker', () => {
    for (const [service, role] of [
      [api, 'all'],
      [worker, 'worker'],
    ] as const) {
      const env = environmentOf(service);
      const read = variablesRead(env, role);
      expect(Object.keys(env).filter((name) => !read.has(name))).toEqual([]);
      const config = loadConfig(env, role);
      expect(config.db.url).toBeDefined();
      expect(config.redis.url).toBe('redis://redis:6379');
      expect(config.process.role).toBe(role === 'worker' ? 'worker' : 'api');
    }
  });

  it('refuses to start without the two secrets', () => {
    expect(() => environmentOf(api, {})).toThrow(/JWT_SECRET/);
    expect(() => environmentOf(worker, { JWT_SECRET: SHELL.JWT_SECRET })).toThrow(/ENCRYPTION_KEY/);
  });

  it('declares every named volume it mounts', () => {
    const named = Object.values(compose.services)
      .flatMap((service) => service.volumes ?? [])
      .map((volume) => volume.split(':')[0])
      .filter((source) => !source.startsWith('.') && !source.startsWith('/'));
    expect(named.length).toBeGreaterThan(0);
    for (const volume of named) expect(Object.keys(compose.volumes)).toContain(volume);
  });
});
