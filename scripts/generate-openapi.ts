import SwaggerParser from '@apidevtools/swagger-parser';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../src/app.module';
import { loadConfig } from '../src/config';
import { buildOpenApiDocument } from '../src/openapi';
import { writeOrCheck } from './generated-file';

/**
 * Writes the OpenAPI description (openapi.json) from the code, without a database or a port:
 * Nest's preview mode resolves the module graph without instantiating providers.
 * With --check it fails when the committed file differs (CI's drift check). Either way the
 * document must pass a real OpenAPI validator first: client generators refuse what it refuses.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const target = args.find((arg) => !arg.startsWith('--')) ?? 'openapi.json';
  const config = loadConfig({
    DATABASE_URL: 'postgres://openapi@127.0.0.1:1/unused',
    JWT_SECRET: 'openapi-generation-only-secret-0123456789',
    ENCRYPTION_KEY: Buffer.alloc(32).toString('base64'),
    LOG_LEVEL: 'silent',
  });
  const app = await NestFactory.create(AppModule.forRoot(config), { preview: true, logger: false });
  const text = `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`;
  await app.close();
  await SwaggerParser.validate(JSON.parse(text) as Parameters<typeof SwaggerParser.validate>[0]);
  writeOrCheck(target, text, check, 'npm run build && npm run openapi');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
