import { IsOptional, IsString } from 'class-validator';
import { RowsCheckTheirOwnText } from './storable-text';
import { createValidationPipe, ValidationFailedException } from './validation';

class BodyWithRows {
  @IsString()
  name!: string;

  @IsOptional()
  @RowsCheckTheirOwnText()
  rows?: Record<string, unknown>[];
}

class Search {
  @IsOptional()
  @IsString()
  search?: string;
}

describe('the global validation pipe refuses text PostgreSQL cannot store', () => {
  const pipe = createValidationPipe();
  const refusal = async (promise: Promise<unknown>) => {
    const error = (await promise.catch((caught: unknown) => caught)) as ValidationFailedException;
    expect(error).toBeInstanceOf(ValidationFailedException);
    return error.fieldErrors;
  };

  it('in a body, before any DTO rule (an e-mail check would throw URIError on \\ud800)', async () => {
    expect(
      await refusal(pipe.transform({ name: 'a\u0000b' }, { type: 'body', metatype: BodyWithRows })),
    ).toEqual([
      {
        field: 'name',
        message: 'name must not contain NUL characters or unpaired UTF-16 surrogates',
      },
    ]);
    await refusal(
      pipe.transform({ name: '\udfff\ud800' }, { type: 'body', metatype: BodyWithRows }),
    );
  });

  it('in a query string and a path parameter', async () => {
    await refusal(pipe.transform({ search: '\u0000' }, { type: 'query', metatype: Search }));
    expect(
      await refusal(pipe.transform('ab\u0000', { type: 'param', data: 'id', metatype: String })),
    ).toEqual([expect.objectContaining({ field: 'id' })]);
  });

  it('but leaves rows that check their own text to them', async () => {
    await expect(
      pipe.transform(
        { name: 'ok', rows: [{ note: 'a\u0000' }] },
        { type: 'body', metatype: BodyWithRows },
      ),
    ).resolves.toMatchObject({ name: 'ok' });
  });

  it('passes ordinary text, emoji included', async () => {
    await expect(
      pipe.transform({ search: 'Zoë 👍' }, { type: 'query', metatype: Search }),
    ).resolves.toEqual({ search: 'Zoë 👍' });
  });
});
