import { ConfigError } from './config.error';

export type Env = Record<string, string | undefined>;

export type EnvReaders = ReturnType<typeof createEnvReaders>;

/** Small typed readers over the raw environment; an empty string counts as unset. */
export function createEnvReaders(env: Env) {
  const raw = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  return {
    raw,
    string(name: string, fallback: string): string {
      return raw(name) ?? fallback;
    },
    integer(name: string, fallback: number, min: number, max: number): number {
      const value = raw(name);
      if (value === undefined) return fallback;
      if (!/^\d+$/.test(value)) throw new ConfigError(name, 'must be a whole number');
      const parsed = Number(value);
      if (parsed < min || parsed > max) {
        throw new ConfigError(name, `must be between ${min} and ${max}`);
      }
      return parsed;
    },
    boolean(name: string, fallback: boolean): boolean {
      const value = raw(name)?.toLowerCase();
      if (value === undefined) return fallback;
      if (['true', '1', 'yes'].includes(value)) return true;
      if (['false', '0', 'no'].includes(value)) return false;
      throw new ConfigError(name, 'must be true or false');
    },
    url(name: string, fallback: string | undefined, protocols: string[]): string | undefined {
      const value = raw(name) ?? fallback;
      if (value === undefined) return undefined;
      let parsed: URL;
      try {
        parsed = new URL(value);
      } catch {
        throw new ConfigError(name, 'must be an absolute URL');
      }
      if (!protocols.includes(parsed.protocol)) {
        throw new ConfigError(name, `must use ${protocols.join(' or ')}`);
      }
      return value.replace(/\/+$/, '');
    },
    oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
      const value = raw(name);
      if (value === undefined) return fallback;
      if (!(allowed as readonly string[]).includes(value)) {
        throw new ConfigError(name, `must be one of ${allowed.join(', ')}`);
      }
      return value as T;
    },
  };
}
