import { BadRequestException } from '@nestjs/common';
import type { GraphTemplateComponent } from './graph/graph.types';
import { fillTemplate } from './template-parameters';

const positional: GraphTemplateComponent[] = [
  { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
  { type: 'BODY', text: 'Hi {{1}}, order {{2}} shipped.' },
  { type: 'BUTTONS', buttons: [{ type: 'URL', url: 'https://shop.example/t/{{1}}' }] },
];

describe('fillTemplate', () => {
  it('builds header, body and URL button parameters in position order, and the read text', () => {
    const filled = fillTemplate(positional, 'POSITIONAL', [
      { component: 'body', index: 2, value: 'A-17' },
      { component: 'body', index: 1, value: 'Ana' },
      { component: 'header', index: 1, value: 'A-17' },
      { component: 'button', buttonIndex: 0, index: 1, value: 'A-17' },
    ]);
    expect(filled.components).toEqual([
      { type: 'header', parameters: [{ type: 'text', text: 'A-17' }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Ana' },
          { type: 'text', text: 'A-17' },
        ],
      },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'A-17' }] },
    ]);
    expect(filled.text).toBe('Hi Ana, order A-17 shipped.');
  });

  it('names the parameters of a NAMED template', () => {
    const filled = fillTemplate([{ type: 'BODY', text: 'Hi {{first_name}}' }], 'NAMED', [
      { component: 'body', name: 'first_name', value: 'Ana' },
    ]);
    expect(filled.components).toEqual([
      { type: 'body', parameters: [{ type: 'text', text: 'Ana', parameter_name: 'first_name' }] },
    ]);
  });

  it('sends no components for a template without variables', () => {
    expect(fillTemplate([{ type: 'BODY', text: 'Hello again' }], 'POSITIONAL', [])).toEqual({
      components: [],
      text: 'Hello again',
    });
  });

  it('refuses missing, unknown and repeated values, naming each', () => {
    const attempt = () =>
      fillTemplate(positional, 'POSITIONAL', [
        { component: 'body', index: 1, value: 'Ana' },
        { component: 'body', index: 1, value: 'Bo' },
        { component: 'body', index: 3, value: 'x' },
      ]);
    expect(attempt).toThrow(BadRequestException);
    expect(attempt).toThrow(
      'Template variables do not match: missing header:1, body:2, button[0]:1; not in the ' +
        'template body:3; given twice body:1',
    );
  });
});
