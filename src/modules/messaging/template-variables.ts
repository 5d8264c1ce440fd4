import type {
  GraphTemplateButton,
  GraphTemplateComponent,
  TemplateParameterFormat,
} from './graph/graph.types';

export type TemplateVariableComponent = 'header' | 'body' | 'button';

/** One value a template needs when it is sent. */
export interface TemplateVariable {
  component: TemplateVariableComponent;
  /** `{{1}}` → 1 (positional templates). */
  index?: number;
  /** `{{first_name}}` → first_name (named templates). */
  name?: string;
  /** Position of the button among the template's buttons (its `index` when sending). */
  buttonIndex?: number;
  /** The example the template was registered with, when it has one: a value to prefill. */
  example?: string;
}

// Meta: names are lower-case letters, digits and underscores, starting with a letter or `_`.
const PLACEHOLDER = /\{\{\s*([a-z_][a-z0-9_]*|\d+)\s*\}\}/g;

/**
 * The variables of a template, in the order of its components (header, body, buttons) and of
 * their first appearance; a placeholder repeated in one component counts once. URL buttons
 * carry their variable at the end of `url`.
 */
export function extractTemplateVariables(
  components: readonly GraphTemplateComponent[],
): TemplateVariable[] {
  const variables: TemplateVariable[] = [];
  for (const component of components) {
    const type = component.type.toUpperCase();
    if (type === 'HEADER' || type === 'BODY') {
      const kind = type === 'HEADER' ? 'header' : 'body';
      for (const placeholder of placeholdersIn(component.text)) {
        variables.push({
          component: kind,
          ...identify(placeholder),
          ...exampleOf(component, kind, placeholder),
        });
      }
    } else if (type === 'BUTTONS') {
      (component.buttons ?? []).forEach((button, buttonIndex) => {
        for (const placeholder of placeholdersIn(button.url)) {
          variables.push({
            component: 'button',
            ...identify(placeholder),
            buttonIndex,
            ...buttonExample(button),
          });
        }
      });
    }
  }
  return variables;
}

/** NAMED when any variable is named; the platform's own `parameter_format` wins when given. */
export function parameterFormatOf(
  declared: TemplateParameterFormat | undefined,
  variables: readonly TemplateVariable[],
): TemplateParameterFormat {
  if (declared) return declared;
  return variables.some((variable) => variable.name !== undefined) ? 'NAMED' : 'POSITIONAL';
}

function placeholdersIn(text: string | undefined): string[] {
  if (typeof text !== 'string') return [];
  return [...new Set(Array.from(text.matchAll(PLACEHOLDER), (match) => match[1]))];
}

function identify(placeholder: string): Pick<TemplateVariable, 'index' | 'name'> {
  return /^\d+$/.test(placeholder) ? { index: Number(placeholder) } : { name: placeholder };
}

function exampleOf(
  component: GraphTemplateComponent,
  kind: 'header' | 'body',
  placeholder: string,
): Pick<TemplateVariable, 'example'> {
  const example = component.example;
  let value: unknown;
  if (/^\d+$/.test(placeholder)) {
    const position = Number(placeholder) - 1;
    value =
      kind === 'header' ? example?.header_text?.[position] : example?.body_text?.[0]?.[position];
  } else {
    const named =
      kind === 'header' ? example?.header_text_named_params : example?.body_text_named_params;
    value = named?.find((param) => param.param_name === placeholder)?.example;
  }
  return typeof value === 'string' ? { example: value } : {};
}

function buttonExample(button: GraphTemplateButton): Pick<TemplateVariable, 'example'> {
  const value = button.example?.[0];
  return typeof value === 'string' ? { example: value } : {};
}
