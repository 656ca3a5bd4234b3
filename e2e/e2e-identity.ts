// The single sign-on of the e2e run: the console's client at the identity provider that
// e2e/start-identity-provider.ts starts, and that provider's issuer. Fixed, for tests only.
import { E2E_IDP_PORT, E2E_SSO_BFF_PORT } from './ports';

/** The console's client at the provider. */
export const E2E_OIDC_CLIENT = {
  clientId: 'privacy-console-e2e',
  clientSecret: 'e2e-oidc-client-secret-not-for-any-real-deployment',
  publicUrl: `http://127.0.0.1:${E2E_SSO_BFF_PORT}`,
} as const;

/**
 * The issuer the console discovers (OIDC_ISSUER): `localhost`, not the console's 127.0.0.1, so
 * the provider is another site and the return from it a cross-site navigation, as in production.
 */
export const E2E_OIDC_ISSUER = `http://localhost:${E2E_IDP_PORT}`;

/** The provider's name on the console's sign-in page (OIDC_DISPLAY_NAME). */
export const E2E_OIDC_DISPLAY_NAME = 'Demo identity provider';
