import { performance } from 'node:perf_hooks';
import type { NextFunction, Request, Response } from 'express';
import type { SwitchboardMetrics } from './switchboard-metrics';

/** Label of requests no route matched: their paths are the client's, so never a label. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Times every request to its last byte, labelled with the route's template (`/api/agents/:id`),
 * never the path a client sent, so the series stay few whatever clients send.
 */
export function httpMetrics(metrics: SwitchboardMetrics) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const started = performance.now();
    response.once('finish', () => {
      const template = (request.route as { path?: unknown } | undefined)?.path;
      // Nest answers unknown paths from a catch-all route (`{/*splat}`): not a route of ours.
      const route =
        typeof template === 'string' && !template.includes('*')
          ? `${request.baseUrl}${template}`
          : UNMATCHED_ROUTE;
      metrics.httpRequestDuration.observe(
        { method: request.method, route, status_code: String(response.statusCode) },
        (performance.now() - started) / 1000,
      );
    });
    next();
  };
}
