import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_KEY_SCHEME, BEARER_SCHEME } from './auth/access';

const DESCRIPTION = `Switchboard places AI-driven outbound calls and runs AI chat agents.

Authenticate with **Authorize**: either a bearer token from \`POST /api/auth/register\` or
\`POST /api/auth/login\`, or an API key from \`POST /api/api-keys\` sent as \`x-api-key\`
(an API key wins when both are sent, and acts as its organization's admin).

Every answer uses the common envelope \`{ message, status, code, errorMessage?, data? }\`;
errors are \`{ message, status: false, code, errorMessage, errors? }\`. Ids are 24-character hex
strings; a malformed id answers 400, an id outside your organization 404.`;

/** The OpenAPI description; operation ids are the (unique) handler names. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Switchboard API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, BEARER_SCHEME)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key' }, API_KEY_SCHEME)
    .build();
  return SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controllerKey, methodKey) => methodKey,
  });
}

export function serveOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'docs-json',
    swaggerOptions: { persistAuthorization: true },
  });
}
