// Starts the e2e run's identity provider (the demo provider) for the single sign-on console of
// playwright.config.ts; stops on SIGTERM.
import { startIdentityProvider } from '../src/mocks/identity-provider';
import { E2E_OIDC_CLIENT } from './e2e-identity';
import { E2E_IDP_PORT } from './ports';

const provider = await startIdentityProvider({
  port: E2E_IDP_PORT,
  host: 'localhost',
  clients: [E2E_OIDC_CLIENT],
});
const stop = () => void provider.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
