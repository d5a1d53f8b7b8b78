/**
 * A minimal node:http server answering every request with one fixed JSON body (200), run as
 * its own process so its CPU is not charged to the client being measured. The parent sends
 * `{ body }` and gets `{ port }` back; it kills the process when done.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

process.once('message', (m: { body: string }) => {
  const body = Buffer.from(m.body);
  const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, headers);
      res.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ port: (server.address() as AddressInfo).port });
  });
});
process.on('disconnect', () => process.exit(0));
