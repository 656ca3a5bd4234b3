// The demo identity provider as a readiness probe meets it: polling its port while it starts.
import { describe, expect, it } from 'vitest';
import { freePort } from '../server/test-support/free-port';
import { startIdentityProvider } from './identity-provider';

describe('the demo identity provider while it starts', () => {
  it('answers a discovery request that reached its port before the provider was ready', async () => {
    const port = await freePort();
    const starting = startIdentityProvider({
      port,
      clients: [
        { clientId: 'probe', clientSecret: 'probe-secret', publicUrl: 'http://127.0.0.1:1' },
      ],
    });
    // Polls as Playwright's webServer check does: the first request that connects is the one
    // that must be answered. The port opens before the signing key is made, so that request
    // arrives while the provider is still being built.
    let answer: Response | undefined;
    const deadline = Date.now() + 20_000;
    while (!answer && Date.now() < deadline) {
      try {
        answer = await fetch(`http://127.0.0.1:${port}/.well-known/openid-configuration`, {
          signal: AbortSignal.timeout(10_000),
        });
      } catch (error) {
        const code = (error as { cause?: { code?: string } }).cause?.code;
        if (code !== 'ECONNREFUSED') throw error;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }
    const provider = await starting;
    try {
      expect(answer?.status).toBe(200);
      expect(((await answer!.json()) as { issuer: string }).issuer).toBe(provider.issuer);
    } finally {
      await provider.close();
    }
  }, 30_000);
});
