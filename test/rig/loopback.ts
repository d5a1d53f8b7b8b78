/** Listen on 127.0.0.1 with an OS-chosen port, and close without waiting for idle keep-alives. */
import type { Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';

export interface Loopback {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  origin: string;
  port: number;
  close(): Promise<void>;
}

export async function listenLoopback(server: Server): Promise<Loopback> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** A loopback port free right now (a server that must be told its port before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createNetServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
