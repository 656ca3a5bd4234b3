// A TCP relay on loopback in front of a server (Redis), which a test can cut and restore: the
// server becomes unreachable for whoever connects through the relay, as in a network failure,
// while other tests keep using the server directly.
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A running relay. */
export interface TcpProxy {
  /** The relay's port on 127.0.0.1. */
  readonly port: number;
  /** Drops every connection and refuses new ones until restore(). */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** Starts relaying 127.0.0.1:<port> to `target`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const newServer = () =>
    createServer((client) => {
      const upstream = connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
  const listen = (server: Server, port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  const stop = (server: Server) =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });

  let server: Server | undefined = newServer();
  await listen(server, 0);
  const { port } = server.address() as AddressInfo;
  return {
    port,
    async cut() {
      if (!server) return;
      const running = server;
      server = undefined;
      await stop(running);
    },
    async restore() {
      if (server) return;
      server = newServer();
      await listen(server, port);
    },
    async close() {
      if (server) await stop(server);
      server = undefined;
    },
  };
}
