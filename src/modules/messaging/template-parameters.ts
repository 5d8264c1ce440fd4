import { BadRequestException } from '@nestjs/common';
import type { GraphTemplateComponent, TemplateParameterFormat } from './graph/graph.types';
import { extractTemplateVariables, type TemplateVariable } from './template-variables';

/** A value for one variable of a template, named the way the variables route lists it. */
export type TemplateValue = Pick<
  TemplateVariable,
  'component' | 'index' | 'name' | 'buttonIndex'
> & {
  value: string;
};

const keyOf = (variable: Pick<TemplateVariable, 'component' | 'index' | 'name' | 'buttonIndex'>) =>
  `${variable.component}${variable.buttonIndex === undefined ? '' : `[${variable.buttonIndex}]`}:` +
  `${variable.index ?? variable.name ?? '?'}`;

/** The template's `components` for a send, and its body as the customer reads it. */
export interface FilledTemplate {
  components: Record<string, unknown>[];
  text: string;
}

/**
 * Fills a template's variables (extractTemplateVariables) with the values sent: every variable
 * needs exactly one value and no value may name a variable the template lacks (400 otherwise,
 * naming them). Builds the platform's header, body and URL-button parameters in order; named
 * templates carry `parameter_name`.
 */
export function fillTemplate(
  components: readonly GraphTemplateComponent[],
  format: TemplateParameterFormat,
  values: readonly TemplateValue[],
): FilledTemplate {
  const variables = extractTemplateVariables(components);
  const given = new Map<string, string>();
  const duplicate: string[] = [];
  for (const value of values) {
    const key = keyOf(value);
    if (given.has(key)) duplicate.push(key);
    given.set(key, value.value);
  }
  const expected = new Set(variables.map(keyOf));
  const missing = [...expected].filter((key) => !given.has(key));
  const unknown = [...given.keys()].filter((key) => !expected.has(key));
  const problems = [
    missing.length ? `missing ${missing.join(', ')}` : '',
    unknown.length ? `not in the template ${unknown.join(', ')}` : '',
    duplicate.length ? `given twice ${duplicate.join(', ')}` : '',
  ].filter(Boolean);
  if (problems.length > 0)
    throw new BadRequestException(`Template variables do not match: ${problems.join('; ')}`);

  const parameter = (variable: TemplateVariable) => ({
    type: 'text',
    text: given.get(keyOf(variable)),
    ...(format === 'NAMED' && variable.name !== undefined ? { parameter_name: variable.name } : {}),
  });
  const ordered = (list: TemplateVariable[]) =>
    format === 'POSITIONAL' ? [...list].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)) : list;
  const built: Record<string, unknown>[] = [];
  for (const kind of ['header', 'body'] as const) {
    const own = variables.filter((variable) => variable.component === kind);
    if (own.length > 0) built.push({ type: kind, parameters: ordered(own).map(parameter) });
  }
  const buttons = new Map<number, TemplateVariable[]>();
  for (const variable of variables.filter((v) => v.component === 'button')) {
    const index = variable.buttonIndex ?? 0;
    buttons.set(index, [...(buttons.get(index) ?? []), variable]);
  }
  for (const [index, own] of buttons) {
    built.push({
      type: 'button',
      sub_type: 'url',
      index: String(index),
      parameters: ordered(own).map(parameter),
    });
  }
  const body = components.find((component) => component.type.toUpperCase() === 'BODY');
  const text = (body?.text ?? '').replace(
    /\{\{\s*([a-z_][a-z0-9_]*|\d+)\s*\}\}/g,
    (whole, placeholder: string) => {
      const variable = /^\d+$/.test(placeholder)
        ? { component: 'body' as const, index: Number(placeholder) }
        : { component: 'body' as const, name: placeholder };
      return given.get(keyOf(variable)) ?? whole;
    },
  );
  return { components: built, text };
}
