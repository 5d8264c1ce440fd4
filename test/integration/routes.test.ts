import { buildOpenApiDocument } from '../../src/openapi';
import { listRoutes, type RouteInfo } from '../support/routes';
import { startTestApp, type TestApp } from '../support/test-app';

const SAMPLE_ID = '65f1c0ffee0123456789abcd';
const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

describe('routes: deny by default, documented', () => {
  let t: TestApp;
  let routes: RouteInfo[];
  beforeAll(async () => {
    t = await startTestApp();
    routes = listRoutes(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  it('finds the routes of every controller', () => {
    expect(routes.length).toBeGreaterThanOrEqual(10);
    expect(routes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: 'POST', path: '/api/auth/register' }),
      ]),
    );
  });

  it('has no route that declares neither @Authenticated nor @Public', () => {
    const undeclared = routes
      .filter((route) => route.policy === undefined)
      .map((r) => `${r.method} ${r.path}`);
    expect(undeclared).toEqual([]);
  });

  it('answers 401 (or the declared status) without credentials on every authenticated route', async () => {
    for (const route of routes.filter((r) => r.policy?.kind === 'authenticated')) {
      const path = route.path.replace(/:\w+/g, SAMPLE_ID);
      const response = await t.http[route.method.toLowerCase() as 'get'](path).send({});
      expect({ route: `${route.method} ${route.path}`, status: response.status }).toEqual({
        route: `${route.method} ${route.path}`,
        status:
          route.policy?.kind === 'authenticated'
            ? (route.policy.unauthenticatedStatus ?? 401)
            : 401,
      });
    }
  });

  it('documents every route once, with unique operation ids and matching security', () => {
    const document = buildOpenApiDocument(t.app);
    const operationIds: string[] = [];
    for (const route of routes) {
      const operation =
        document.paths[toOpenApiPath(route.path)]?.[route.method.toLowerCase() as 'get'];
      expect({ route: route.path, documented: operation !== undefined }).toEqual({
        route: route.path,
        documented: true,
      });
      operationIds.push(operation!.operationId!);
      expect(operation!.operationId).toBe(route.handler);
      const schemes = (operation!.security ?? []).flatMap((requirement) =>
        Object.keys(requirement),
      );
      if (route.policy?.kind === 'authenticated') {
        expect(schemes).toContain('bearer');
        expect(schemes.includes('api-key')).toBe(route.policy.apiKey !== false);
      } else {
        expect(schemes).toEqual([]);
      }
    }
    expect(new Set(operationIds).size).toBe(operationIds.length);
    const documented = Object.values(document.paths).flatMap((item) => Object.keys(item));
    expect(documented.length).toBe(routes.length);
  });

  it('serves Swagger UI at /docs and the same description at /docs-json', async () => {
    const ui = await t.http.get('/docs/').expect(200);
    expect(ui.text).toContain('swagger-ui');
    const json = await t.http.get('/docs-json').expect(200);
    expect(json.body.components.securitySchemes).toEqual({
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      'api-key': { type: 'apiKey', in: 'header', name: 'x-api-key' },
    });
    expect(Object.keys(json.body.paths).sort()).toEqual(
      Object.keys(buildOpenApiDocument(t.app).paths).sort(),
    );
  });
});
