import type { GraphTemplateComponent } from './graph/graph.types';
import { extractTemplateVariables, parameterFormatOf } from './template-variables';

describe('extractTemplateVariables', () => {
  it('reads positional variables of header, body and a URL button, with their examples', () => {
    const components: GraphTemplateComponent[] = [
      { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['#42'] } },
      {
        type: 'BODY',
        text: 'Hi {{1}}, your order from {{2}} ships {{3}}.',
        example: { body_text: [['Ana', 'Acme']] },
      },
      { type: 'FOOTER', text: 'Reply STOP to opt out {{9}}' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'QUICK_REPLY', text: 'Thanks' },
          {
            type: 'URL',
            text: 'Track',
            url: 'https://shop.example/track/{{1}}',
            example: ['https://shop.example/track/ABC'],
          },
        ],
      },
    ];
    expect(extractTemplateVariables(components)).toEqual([
      { component: 'header', index: 1, example: '#42' },
      { component: 'body', index: 1, example: 'Ana' },
      { component: 'body', index: 2, example: 'Acme' },
      { component: 'body', index: 3 },
      {
        component: 'button',
        index: 1,
        buttonIndex: 1,
        example: 'https://shop.example/track/ABC',
      },
    ]);
  });

  it('reads named variables, pairing each with its named example', () => {
    const components: GraphTemplateComponent[] = [
      {
        type: 'header',
        format: 'TEXT',
        text: 'Hello {{ first_name }}',
        example: { header_text_named_params: [{ param_name: 'first_name', example: 'Ana' }] },
      },
      {
        type: 'BODY',
        text: 'Your {{order_id}} is ready, {{first_name}}. Again: {{order_id}}.',
        example: {
          body_text_named_params: [
            { param_name: 'first_name', example: 'Ana' },
            { param_name: 'order_id', example: 'A-17' },
          ],
        },
      },
    ];
    expect(extractTemplateVariables(components)).toEqual([
      { component: 'header', name: 'first_name', example: 'Ana' },
      { component: 'body', name: 'order_id', example: 'A-17' },
      { component: 'body', name: 'first_name', example: 'Ana' },
    ]);
  });

  it('finds nothing in a template without placeholders, media headers or malformed ones', () => {
    const components: GraphTemplateComponent[] = [
      { type: 'HEADER', format: 'IMAGE' },
      { type: 'BODY', text: 'Plain {text} and {{ Not-A-Name }} and {{}}' },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Site', url: 'https://x.example/' }] },
    ];
    expect(extractTemplateVariables(components)).toEqual([]);
  });

  it('leaves out an example that is missing or not a string', () => {
    const components = [
      { type: 'BODY', text: '{{1}} {{2}}', example: { body_text: [[7 as unknown as string]] } },
    ];
    expect(extractTemplateVariables(components)).toEqual([
      { component: 'body', index: 1 },
      { component: 'body', index: 2 },
    ]);
  });
});

describe('parameterFormatOf', () => {
  it('keeps the platform’s format, else infers it from the variables', () => {
    expect(parameterFormatOf('POSITIONAL', [{ component: 'body', name: 'x' }])).toBe('POSITIONAL');
    expect(parameterFormatOf(undefined, [{ component: 'body', name: 'x' }])).toBe('NAMED');
    expect(parameterFormatOf(undefined, [{ component: 'body', index: 1 }])).toBe('POSITIONAL');
  });
});
