import { readFileSync } from 'node:fs';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { writeOrCheck } from './generated-file';

/**
 * Writes the typed client's types (libs/client/src/openapi.generated.ts) from the committed
 * openapi.json with openapi-typescript, formatted like the rest of the code. With --check it
 * fails when the committed file differs (CI's drift check, next to openapi:check).
 */
const SOURCE = 'openapi.json';
const TARGET = 'libs/client/src/openapi.generated.ts';

async function generate(): Promise<string> {
  const ast = await openapiTS(JSON.parse(readFileSync(SOURCE, 'utf8')) as OpenAPI3, {
    // A property with a default stays optional in request bodies (the server fills it in).
    defaultNonNullable: false,
  });
  const header = `// Generated from ${SOURCE} by scripts/generate-client.ts (npm run sdk): do not edit.\n`;
  const options = await resolveConfig(TARGET);
  return format(header + astToString(ast), { ...options, filepath: TARGET });
}

async function main(): Promise<void> {
  writeOrCheck(
    TARGET,
    await generate(),
    process.argv.includes('--check'),
    'npm run openapi && npm run sdk',
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
