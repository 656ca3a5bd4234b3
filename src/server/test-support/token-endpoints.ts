// Token endpoints on loopback for the token tests (tests only): one as strict as the vendor's
// OAuth token document (multipart/form-data only, read by Node's own WHATWG form parser), a
// certified OAuth server (oidc-provider) that takes RFC 6749's urlencoded form only, and raw
// sockets that answer byte for byte what a test scripts, broken HTTP included.
import { TOKEN_OPERATION } from '../../shared/platform-operations';
import { createServer as createHttpServer, type Server } from 'node:http';
import {
  createServer as createTcpServer,
  type AddressInfo,
  type Server as TcpServer,
} from 'node:net';
import Provider from 'oidc-provider';

/** The credential every endpoint here accepts. */
export const TOKEN_CLIENT = { id: 'console-client', secret: 'the-right-secret' } as const;

const open: Array<Server | TcpServer> = [];

/** Closes every endpoint the test started (call in afterEach). */
export async function closeTokenEndpoints(): Promise<void> {
  for (const server of open.splice(0)) {
    if ('closeAllConnections' in server) server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

async function listen(server: Server | TcpServer): Promise<number> {
  open.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** What a strict endpoint received, per request. */
export interface StrictEndpointLog {
  readonly contentTypes: string[];
}

/**
 * A token endpoint that behaves as the vendor's document reads: `multipart/form-data` with
 * `grant_type`, `client_id` and `client_secret`, else 415; a wrong credential gets 401
 * `invalid_client`; success is the document's answer shape.
 */
export async function strictMultipartEndpoint(): Promise<{ url: URL } & StrictEndpointLog> {
  const contentTypes: string[] = [];
  const server = createHttpServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const contentType = req.headers['content-type'] ?? '';
    contentTypes.push(contentType);
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (!/^multipart\/form-data\s*;/i.test(contentType)) return answer(415, {});
    let form: FormData;
    try {
      form = await new Request('http://token.test/', {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: Buffer.concat(chunks),
      }).formData();
    } catch {
      return answer(400, { error: 'invalid_request' });
    }
    if ([...form.keys()].sort().join() !== 'client_id,client_secret,grant_type') {
      return answer(400, { error: 'invalid_request', error_description: 'Unexpected fields' });
    }
    if (form.get('grant_type') !== 'client_credentials') {
      return answer(400, { error: 'unsupported_grant_type' });
    }
    if (
      form.get('client_id') !== TOKEN_CLIENT.id ||
      form.get('client_secret') !== TOKEN_CLIENT.secret
    ) {
      return answer(401, {
        error: 'invalid_client',
        error_description: 'Invalid client credentials',
      });
    }
    return answer(200, {
      access_token: 'eyJhbGciOiJSUzI1NiJ9.e30.c2ln',
      token_type: 'bearer',
      expires_in: 31_535_999,
      jti: 'U3TACUsO6qB',
      scope: 'read',
    });
  });
  const port = await listen(server);
  return { url: new URL(`http://127.0.0.1:${port}${TOKEN_OPERATION.path}`), contentTypes };
}

/**
 * oidc-provider, a certified OpenID provider, with one client-credentials client that
 * authenticates with form fields (`client_secret_post`). Its token endpoint is `/token`.
 */
export async function certifiedOAuthServer(): Promise<{ url: URL }> {
  const server = createHttpServer();
  const port = await listen(server);
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TOKEN_CLIENT.id,
        client_secret: TOKEN_CLIENT.secret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    features: { clientCredentials: { enabled: true }, devInteractions: { enabled: false } },
    ttl: { ClientCredentials: 600 },
  });
  server.on('request', provider.callback());
  return { url: new URL(`${issuer}/token`) };
}

/** A TCP server that answers every request with `reply` as is, then closes (unless `hold`). */
export async function rawEndpoint(
  reply: string | Buffer | undefined,
  { hold = false }: { hold?: boolean } = {},
): Promise<URL> {
  const server = createTcpServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', () => {
      if (reply === undefined) return; // never answers
      socket.write(reply);
      if (!hold) socket.end();
    });
  });
  const port = await listen(server);
  return new URL(`http://127.0.0.1:${port}${TOKEN_OPERATION.path}`);
}

/** A loopback port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
