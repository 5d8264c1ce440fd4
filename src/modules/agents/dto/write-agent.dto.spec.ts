import { createValidationPipe, ValidationFailedException } from '../../../common/validation';
import { CreateAgentDto, UpdateAgentDto } from './write-agent.dto';

describe('agent bodies', () => {
  const pipe = createValidationPipe();
  const parse = (metatype: typeof CreateAgentDto | typeof UpdateAgentDto, body: object) =>
    pipe.transform(body, { type: 'body', metatype }) as Promise<CreateAgentDto>;
  const refusedFields = async (
    metatype: typeof CreateAgentDto | typeof UpdateAgentDto,
    body: object,
  ) => {
    const error = (await parse(metatype, body).catch((caught: unknown) => caught)) as Error;
    expect(error).toBeInstanceOf(ValidationFailedException);
    return (error as ValidationFailedException).fieldErrors.map(({ field }) => field);
  };

  it('stores language in canonical form and transferNumber in E.164', async () => {
    const dto = await parse(CreateAgentDto, {
      agent_name: 'Ada',
      language: 'pt-br',
      transferNumber: '44 20 7946 0958',
    });
    expect(dto).toMatchObject({ language: 'pt-BR', transferNumber: '+442079460958' });
  });

  describe('analysisFields', () => {
    const field = (overrides: object = {}) => ({
      name: 'outcome',
      type: 'string',
      description: 'What happened',
      ...overrides,
    });
    const body = (...analysisFields: object[]) => ({ agent_name: 'Ada', analysisFields });

    it('accepts each type, and options on enum fields', async () => {
      const dto = await parse(
        CreateAgentDto,
        body(
          field(),
          field({ name: 'score', type: 'number' }),
          field({ name: 'booked', type: 'boolean' }),
          field({ name: 'slot', type: 'enum', options: ['am', 'pm'] }),
        ),
      );
      expect(dto.analysisFields?.map(({ name }) => name)).toEqual([
        'outcome',
        'score',
        'booked',
        'slot',
      ]);
    });

    it.each([
      ['enum without options', field({ type: 'enum' }), 'analysisFields.0.options'],
      ['enum with no option', field({ type: 'enum', options: [] }), 'analysisFields.0.options'],
      [
        'enum with null options',
        field({ type: 'enum', options: null }),
        'analysisFields.0.options',
      ],
      [
        'enum with an empty option',
        field({ type: 'enum', options: [''] }),
        'analysisFields.0.options',
      ],
      [
        'enum repeating an option',
        field({ type: 'enum', options: ['a', 'a'] }),
        'analysisFields.0.options',
      ],
      [
        'options on a number field',
        field({ type: 'number', options: ['1'] }),
        'analysisFields.0.options',
      ],
      ['null options on a string field', field({ options: null }), 'analysisFields.0.options'],
      ['a name with a space', field({ name: 'two words' }), 'analysisFields.0.name'],
      ['a name starting with a digit', field({ name: '1st' }), 'analysisFields.0.name'],
      ['no description', field({ description: undefined }), 'analysisFields.0.description'],
      ['an unknown type', field({ type: 'date' }), 'analysisFields.0.type'],
      ['an unknown property', field({ required: true }), 'analysisFields.0.required'],
    ])('refuses %s', async (_case, analysisField, refused) => {
      expect(await refusedFields(CreateAgentDto, body(analysisField))).toContain(refused);
    });

    it('refuses two fields with one name', async () => {
      expect(await refusedFields(CreateAgentDto, body(field(), field({ type: 'number' })))).toEqual(
        ['analysisFields'],
      );
    });
  });

  it('lets a PATCH leave everything out, clear nullable fields, and refuses null elsewhere', async () => {
    await expect(parse(UpdateAgentDto, {})).resolves.toEqual({});
    await expect(
      parse(UpdateAgentDto, {
        gender: null,
        voice: null,
        greeting: null,
        voicemailMessage: null,
        transferNumber: null,
      }),
    ).resolves.toMatchObject({ greeting: null, transferNumber: null });
    for (const field of [
      'agent_name',
      'conversationType',
      'prompt',
      'language',
      'knowledgeBaseIds',
      'maxCallSeconds',
      'interruptible',
      'analysisFields',
      'isDefault',
    ]) {
      expect(await refusedFields(UpdateAgentDto, { [field]: null })).toContain(field);
    }
  });
});
