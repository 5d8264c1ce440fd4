/**
 * The typed Switchboard REST client: openapi-fetch over types generated from the committed
 * openapi.json (`npm run sdk`; CI fails when they drift). Import as `@app/client`.
 */
import type { components } from './openapi.generated';

export {
  createSwitchboardClient,
  type SwitchboardClient,
  type SwitchboardClientOptions,
  type SwitchboardCredentials,
} from './client';
export { type ErrorEnvelope, SwitchboardApiError, unwrap } from './errors';
export type { components, operations, paths } from './openapi.generated';

/** A schema of openapi.json by name: `Schema<'BatchDetailsDto'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];
