// The identity provider as openid-client sees it: its discovery document, fetched when first
// needed and again after a failure, so the console starts while the provider is away and signing
// in works as soon as it is back. Readiness names the provider while discovery fails.
import * as client from 'openid-client';
import type { IdentityConfig } from '../config/config';

/** How long a failed discovery is remembered before the next sign-in tries again. */
const RETRY_AFTER_MS = 5_000;

/** Deadline of each request to the provider (discovery, token, keys), in seconds. */
const PROVIDER_TIMEOUT_SECONDS = 10;

/** How the console calls the provider: fetch, or a test's stand-in for it. */
export type ProviderFetch = (url: string, options: client.CustomFetchOptions) => Promise<Response>;

/** The provider could not be reached or its discovery document is unusable. */
export class ProviderUnreachableError extends Error {
  override name = 'ProviderUnreachableError';
}

export interface OidcDiscoveryOptions {
  readonly config: IdentityConfig;
  /** The console's clock: ID token times are judged by it (tests move it). */
  readonly now: () => number;
  /** Replaces fetch for every request to the provider (tests: an attacker in the middle). */
  readonly fetch?: ProviderFetch;
}

/** The provider's discovered configuration, with the console as its client. */
export class OidcDiscovery {
  readonly #options: OidcDiscoveryOptions;
  #pending: Promise<client.ServerMetadata> | undefined;
  #failure: { at: number; error: ProviderUnreachableError } | undefined;

  constructor(options: OidcDiscoveryOptions) {
    this.#options = options;
  }

  /**
   * The client configuration, built afresh on the discovered metadata so ID token times are
   * judged by the console's clock as it is now; throws ProviderUnreachableError (not retried
   * for a few seconds).
   */
  async configuration(): Promise<client.Configuration> {
    const server = await this.#serverMetadata();
    const { config, now } = this.#options;
    const configuration = new client.Configuration(
      server,
      config.clientId,
      // The console's clock, as openid-client's skew from the system clock (seconds).
      { [client.clockSkew]: Math.round((now() - Date.now()) / 1000) },
      config.clientAuth === 'post'
        ? client.ClientSecretPost(config.clientSecret)
        : client.ClientSecretBasic(config.clientSecret),
    );
    this.#prepare(configuration);
    return configuration;
  }

  /** The discovered metadata, discovering first when needed. */
  async #serverMetadata(): Promise<client.ServerMetadata> {
    const { now } = this.#options;
    if (this.#failure && now() - this.#failure.at < RETRY_AFTER_MS) throw this.#failure.error;
    this.#pending ??= this.#discover().then(
      (server) => {
        this.#failure = undefined;
        return server;
      },
      (error: unknown) => {
        this.#pending = undefined;
        const reason = error instanceof Error ? error.message : String(error);
        this.#failure = {
          at: now(),
          error: new ProviderUnreachableError(
            `identity provider ${this.#options.config.issuer} cannot be reached: ${reason}`,
          ),
        };
        throw this.#failure.error;
      },
    );
    return this.#pending;
  }

  /** For /readyz: whether discovery works, naming the provider when it does not. */
  async readiness(): Promise<{ ok: boolean; error?: string }> {
    try {
      await this.configuration();
      return { ok: true };
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    }
  }

  async #discover(): Promise<client.ServerMetadata> {
    const { config } = this.#options;
    const issuer = new URL(config.issuer);
    const configuration = await client.discovery(issuer, config.clientId, undefined, undefined, {
      ...(issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
      ...(this.#options.fetch ? { [client.customFetch]: this.#options.fetch } : {}),
      timeout: PROVIDER_TIMEOUT_SECONDS,
    });
    return configuration.serverMetadata();
  }

  /** Timeout, loopback http (config.ts allows it nowhere else) and the test's fetch. */
  #prepare(configuration: client.Configuration): void {
    configuration.timeout = PROVIDER_TIMEOUT_SECONDS;
    if (new URL(this.#options.config.issuer).protocol === 'http:') {
      client.allowInsecureRequests(configuration);
    }
    if (this.#options.fetch) configuration[client.customFetch] = this.#options.fetch;
  }
}
