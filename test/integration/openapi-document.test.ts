import SwaggerParser from '@apidevtools/swagger-parser';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type OpenApiDocument = Parameters<typeof SwaggerParser.validate>[0];
type WithSchemas = { components: { schemas: Record<string, { required?: string[] }> } };

// What REST clients generate code from must pass a real validator, not only the drift check
// (issue #31, finding 10: `required: []` on a multipart schema stopped validating generators).
describe('openapi.json', () => {
  const committed = (): OpenApiDocument =>
    JSON.parse(readFileSync(join(__dirname, '../../openapi.json'), 'utf8')) as OpenApiDocument;

  it('passes @apidevtools/swagger-parser, every $ref resolving', async () => {
    await expect(SwaggerParser.validate(committed())).resolves.toBeDefined();
  });

  it('the validator refuses an empty required list, as it refused the knowledge-base update form', async () => {
    const document = committed();
    const { schemas } = (document as unknown as WithSchemas).components;
    schemas[Object.keys(schemas)[0]].required = [];
    await expect(SwaggerParser.validate(document)).rejects.toThrow(/fewer than 1 items/);
  });
});
