/**
 * A loopback TCP proxy in front of a server (PostgreSQL in the store-fault tests) that a test
 * can stall and reset, as a flaky network or a hung database would:
 *
 *   const proxy = await createTcpProxy({ host: '127.0.0.1', port: 5432 });
 *   proxy.pause();   // bytes stop flowing both ways (held, not lost); new connections hang too
 *   proxy.resume();  // what was held flows on
 *   proxy.reset();   // every open connection is reset (RST); new ones are taken as usual
 */
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  through(url: string): string;
  pause(): void;
  resume(): void;
  reset(): void;
  /** Bytes held while paused, both directions (a query waiting to be sent shows here). */
  heldBytes(): number;
  /** Connections open now. */
  connections(): number;
  close(): Promise<void>;
}

interface Pipe {
  client: Socket;
  server: Socket;
  held: { to: Socket; chunk: Buffer }[];
}

export async function createTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pipes = new Set<Pipe>();
  let paused = false;

  const forward = (pipe: Pipe, to: Socket) => (chunk: Buffer) => {
    if (paused || pipe.held.length > 0) pipe.held.push({ to, chunk });
    else to.write(chunk);
  };
  const flush = (pipe: Pipe) => {
    for (const { to, chunk } of pipe.held.splice(0)) if (!to.destroyed) to.write(chunk);
  };

  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    const pipe: Pipe = { client, server: upstream, held: [] };
    pipes.add(pipe);
    client.on('data', forward(pipe, upstream));
    upstream.on('data', forward(pipe, client));
    const end = () => {
      pipes.delete(pipe);
      if (!client.destroyed) client.destroy();
      if (!upstream.destroyed) upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    through(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      for (const pipe of pipes) flush(pipe);
    },
    reset() {
      for (const pipe of [...pipes]) {
        pipe.held.length = 0;
        pipe.client.resetAndDestroy();
        pipe.server.resetAndDestroy();
        pipes.delete(pipe);
      }
    },
    heldBytes: () => [...pipes].reduce((n, p) => n + p.held.reduce((m, h) => m + h.chunk.length, 0), 0),
    connections: () => pipes.size,
    async close() {
      for (const pipe of pipes) {
        pipe.client.destroy();
        pipe.server.destroy();
      }
      pipes.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
