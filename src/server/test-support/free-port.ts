// A free loopback port, for servers a test or a bench scenario starts where a fixed one may be
// taken by another run on the same machine.
import { createServer, type AddressInfo } from 'node:net';

/** A TCP port nothing listens on now, on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
