export {
  ACCESS_METADATA,
  API_KEY_SCHEME,
  Authenticated,
  BEARER_SCHEME,
  CurrentPrincipal,
  Public,
  type AccessPolicy,
  type AuthenticatedOptions,
} from './access.decorators';
export type { Principal } from './principal';
