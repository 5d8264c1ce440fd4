import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const TLS_DIR = join(__dirname, '..', 'fixtures', 'tls');
/** The test CA's server certificate for 127.0.0.1, localhost and hooks.example.com. */
export const TEST_TLS = {
  key: readFileSync(join(TLS_DIR, 'server.key')),
  cert: readFileSync(join(TLS_DIR, 'server.crt')),
};

export interface ReceivedDelivery {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface ScriptedResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Answers only once this settles: an endpoint still working on the request. */
  until?: Promise<unknown>;
}

/**
 * A real HTTPS webhook receiver on 127.0.0.1 (random port) with the test CA's certificate
 * (trusted through NODE_EXTRA_CA_CERTS). Keeps every request; answers 204 unless a path has
 * scripted responses (consumed in order; the last one repeats).
 */
export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  /** TCP connections accepted, whatever came of them (the SSRF canary counts these). */
  connections = 0;
  /** Told of each request as it arrives (the sandbox prints them). */
  onDelivery: ((delivery: ReceivedDelivery) => void) | undefined;
  private readonly scripts = new Map<string, ScriptedResponse[]>();
  private readonly server: Server;

  private constructor() {
    this.server = createServer({ ...TEST_TLS, keepAliveTimeout: 30_000 }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '/';
        const delivery = {
          path,
          headers: req.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        this.received.push(delivery);
        this.onDelivery?.(delivery);
        const script = this.scripts.get(path);
        const response = (script && script.length > 1 ? script.shift() : script?.[0]) ?? {
          status: 204,
        };
        const answer = () => res.writeHead(response.status, response.headers).end(response.body);
        if (response.until) void response.until.finally(answer);
        else answer();
      });
    });
    this.server.on('connection', () => (this.connections += 1));
  }

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path: string, host = '127.0.0.1'): string {
    return `https://${host}:${this.port}${path}`;
  }

  /** Answers on that path in turn; the last response repeats. */
  script(path: string, ...responses: ScriptedResponse[]): void {
    this.scripts.set(path, responses);
  }

  at(path: string): ReceivedDelivery[] {
    return this.received.filter((delivery) => delivery.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
