import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_KEY_SCHEME, BEARER_SCHEME } from './auth/access';

const DESCRIPTION = `Switchboard places AI-driven outbound calls and runs AI chat agents.

Authenticate with **Authorize**: either a bearer token from \`POST /api/auth/register\` or
\`POST /api/auth/login\`, or an API key from \`POST /api/api-keys\` sent as \`x-api-key\`
(an API key wins when both are sent, and acts as its organization's admin).

Every answer uses the common envelope \`{ message, status, code, errorMessage?, data? }\`;
errors are \`{ message, status: false, code, errorMessage, errors? }\`. Ids are 24-character hex
strings; a malformed id answers 400, an id outside your organization 404.

Text is refused, not altered: a NUL character or an unpaired UTF-16 surrogate (\\u0000, a lone
\\ud800) anywhere in a JSON body, query string, path parameter or form field answers 400 with the
field named in \`errors\` (PostgreSQL cannot store them). Contact rows are the exception: such a
value rejects its row, reported as \`invalid_field\`, and the other rows are imported. A query that
runs past the server's statement timeout (\`DB_STATEMENT_TIMEOUT_MS\`, 5 s by default) answers 408:
narrow the search or filter.`;

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
