// The part of oidc-provider's API the token tests and the demo identity provider use: the package
// ships no type declarations.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface ClientMetadata {
    client_id: string;
    client_secret: string;
    grant_types: string[];
    redirect_uris: string[];
    response_types: string[];
    token_endpoint_auth_method: string;
    post_logout_redirect_uris?: string[];
    backchannel_logout_uri?: string;
    backchannel_logout_session_required?: boolean;
  }

  interface AccountClaims {
    sub: string;
    [claim: string]: unknown;
  }

  interface Account {
    accountId: string;
    claims(): AccountClaims | Promise<AccountClaims>;
  }

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  interface Session {
    accountId?: string;
    grantIdFor(clientId: string): string | undefined;
    ensureClientContainer(clientId: string): void;
  }

  export interface KoaContextWithOIDC {
    oidc: {
      client?: { clientId: string };
      session?: Session;
      provider: Provider;
    };
  }

  interface Configuration {
    clients: ClientMetadata[];
    features?: {
      clientCredentials?: { enabled: boolean };
      devInteractions?: { enabled: boolean };
      backchannelLogout?: { enabled: boolean };
      rpInitiatedLogout?: { enabled: boolean };
    };
    ttl?: Partial<
      Record<
        'ClientCredentials' | 'Interaction' | 'Session' | 'Grant' | 'AccessToken' | 'IdToken',
        number
      >
    >;
    jwks?: { keys: object[] };
    fetch?: (url: string, options: RequestInit) => Promise<Response>;
    claims?: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    cookies?: { keys: string[] };
    pkce?: { required: () => boolean };
    interactions?: { url: (ctx: KoaContextWithOIDC, interaction: { uid: string }) => string };
    loadExistingGrant?: (ctx: KoaContextWithOIDC) => Promise<Grant | undefined>;
    findAccount?: (ctx: KoaContextWithOIDC, id: string) => Account | undefined;
  }

  interface InteractionResult {
    login?: { accountId: string; amr?: string[]; acr?: string };
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<{ uid: string }>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResult,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    Grant: {
      new (properties: { clientId: string; accountId: string }): Grant;
      find(id: string): Promise<Grant | undefined>;
    };
    Client: {
      find(
        id: string,
      ): Promise<{ backchannelLogout(sub: string, sid: string): Promise<void> } | undefined>;
    };
  }
}
