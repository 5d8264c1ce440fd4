import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './openapi.generated';

/** How the client proves who it is: an API key (`x-api-key`) or a bearer token, or neither. */
export type SwitchboardCredentials =
  | { apiKey: string; token?: never }
  | {
      apiKey?: never;
      /** A bearer token, or a function giving the current one (read before every request). */
      token: string | (() => string | Promise<string>);
    }
  | { apiKey?: never; token?: never };

export type SwitchboardClientOptions = SwitchboardCredentials & {
  /** The service's origin, for example `https://switchboard.example.com` (no `/api`). */
  baseUrl: string;
  /** Another fetch implementation (tests, proxies); defaults to the global one. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
};

/** Every operation of openapi.json, typed: `client.POST('/api/agents', { body })`. */
export type SwitchboardClient = Client<paths>;

function authMiddleware(credentials: SwitchboardCredentials): Middleware | undefined {
  const { apiKey, token } = credentials;
  if (apiKey !== undefined) {
    return {
      onRequest({ request }) {
        request.headers.set('x-api-key', apiKey);
      },
    };
  }
  if (token !== undefined) {
    return {
      async onRequest({ request }) {
        const current = typeof token === 'function' ? await token() : token;
        request.headers.set('authorization', `Bearer ${current}`);
      },
    };
  }
  return undefined;
}

/**
 * A typed client of the Switchboard REST API (openapi-fetch over the types generated from
 * openapi.json). Without credentials only the public routes answer (register, login, health).
 *
 * @example
 * const client = createSwitchboardClient({ baseUrl: 'http://localhost:3000', apiKey });
 * const { data: agent } = await unwrap(client.POST('/api/agents', { body: { agent_name: 'Ava' } }));
 */
export function createSwitchboardClient(options: SwitchboardClientOptions): SwitchboardClient {
  if ('apiKey' in options && 'token' in options && options.apiKey && options.token) {
    throw new TypeError('Give createSwitchboardClient an apiKey or a token, not both');
  }
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: options.fetch,
    headers: options.headers,
  });
  const auth = authMiddleware(options);
  if (auth) client.use(auth);
  return client;
}
