// The ports of the e2e run. E2E_PORT_OFFSET shifts them all, so two checkouts on one machine can
// run their end-to-end suites at the same time without taking each other's servers.
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0) || 0;

export const E2E_MOCK_PORT = 8798 + offset;
export const E2E_BFF_PORT = 8797 + offset;
/**
 * A second console in demo mode (built-in mock, demo users), for the demo controls of the
 * rate-limit panel: they drive the mock in-process, which a live-mode console cannot.
 */
export const E2E_DEMO_BFF_PORT = 8794 + offset;
/** The identity provider of the single sign-on specs (e2e/start-identity-provider.ts). */
export const E2E_IDP_PORT = 8792 + offset;
/** A third console, signing people in through that provider (OIDC_ISSUER set). */
export const E2E_SSO_BFF_PORT = 8793 + offset;
