// The part of oidc-provider's API the token tests use: the package ships no type declarations.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface ClientMetadata {
    client_id: string;
    client_secret: string;
    grant_types: string[];
    redirect_uris: string[];
    response_types: string[];
    token_endpoint_auth_method: string;
  }

  interface Configuration {
    clients: ClientMetadata[];
    features?: {
      clientCredentials?: { enabled: boolean };
      devInteractions?: { enabled: boolean };
    };
    ttl?: { ClientCredentials?: number };
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
