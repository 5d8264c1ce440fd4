import { createServer, type Server } from 'node:http';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config';
import { describeUnknown } from '../common/describe-error';
import { MetricsSampler } from './metrics-sampler';

/**
 * METRICS_PORT: `/metrics` without a token on a listener of its own (METRICS_HOST, loopback by
 * default), in every process role, the worker's included, which has no HTTP API to carry it.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server: Server | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sampler: MetricsSampler,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { port, host } = this.config.metrics;
    if (port === undefined) return;
    const server = createServer((request, response) => {
      if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
        return;
      }
      this.sampler
        .scrape()
        .then(({ contentType, body }) => {
          response.writeHead(200, { 'content-type': contentType }).end(body);
        })
        .catch((error: unknown) => {
          this.logger.warn(`Scrape failed: ${JSON.stringify(describeUnknown(error))}`);
          response.writeHead(500, { 'content-type': 'text/plain' }).end('Scrape failed\n');
        });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    this.server = server;
    this.logger.log(`Metrics at http://${host}:${port}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
