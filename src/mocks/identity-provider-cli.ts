// `npm run demo-idp`: a local identity provider with demo accounts, and the variables that point
// the console at it. For trying single sign-on on a laptop; never for production.
import { randomBytes } from 'node:crypto';
import {
  DEMO_ACCOUNTS,
  DEMO_IDP_PASSWORD,
  DEMO_ROLE_MAP,
  startIdentityProvider,
} from './identity-provider';

const port = Number(process.env.DEMO_IDP_PORT ?? 8791);
const publicUrl = (process.env.PUBLIC_URL ?? 'http://127.0.0.1:8787').replace(/\/+$/, '');
const clientSecret = randomBytes(24).toString('base64url');
// `localhost` rather than the console's 127.0.0.1: another site, as a real provider is, so the
// return from it is a cross-site navigation.
const provider = await startIdentityProvider({
  port,
  host: 'localhost',
  clients: [{ clientId: 'privacy-console', clientSecret, publicUrl }],
});

const roleOf = (groups: readonly string[]) =>
  DEMO_ROLE_MAP.split(';')
    .find((entry) => groups.some((group) => entry.split('=')[1]!.split(',').includes(group)))
    ?.split('=')[0] ?? 'no access';

console.log(`Demo identity provider at ${provider.issuer}

Point the console at it (in .env or the environment), then start it with npm run dev or npm start:

OIDC_ISSUER=${provider.issuer}
OIDC_CLIENT_ID=privacy-console
OIDC_CLIENT_SECRET=${clientSecret}
OIDC_DISPLAY_NAME=Demo identity provider
OIDC_ROLE_MAP=${DEMO_ROLE_MAP}
PUBLIC_URL=${publicUrl}

Accounts (password "${DEMO_IDP_PASSWORD}" for each):
${DEMO_ACCOUNTS.map((account) => `  ${account.login.padEnd(6)} ${roleOf(account.groups).padEnd(10)} ${account.name}${account.mfa ? ' (signs in with a second factor: try OIDC_REQUIRE_MFA=true)' : ''}`).join('\n')}

The client secret is new at every start; the provider keeps nothing. Ctrl-C stops it.`);

const stop = () => void provider.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
