// What the TypeScript benches that drive the built server share, on top of harness.js.
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import * as h from './harness';

/** The 1-, 5- and 15-minute load averages ("1.2, 0.9, 0.7"): a shared box says it next to figures. */
export const loadAverages = (): string =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(', ');

export interface BenchAdmin {
  token: string;
  organizationId: string;
  userId: string;
}

/** A new organization and its admin on the server at `port` (POST /api/auth/register). */
export async function registerAdmin(port: number): Promise<BenchAdmin> {
  const session = await h.json<{
    data: { accessToken: string; user: { _id: string; organizationId: string } };
  }>(port, 'POST', '/api/auth/register', {
    organizationName: 'Bench',
    name: 'Bench Admin',
    email: `bench-${randomBytes(4).toString('hex')}@example.com`,
    password: 'correct horse battery',
  });
  const { accessToken, user } = session.data;
  return { token: accessToken, organizationId: user.organizationId, userId: user._id };
}

/** Runs `work` beside a private redis-server, stopped whatever `work` does. */
export async function withRedis<T>(work: (redisUrl: string) => Promise<T>): Promise<T> {
  const redis = await h.startRedis();
  try {
    return await work(redis.url);
  } finally {
    await h.killChild(redis.child);
  }
}
