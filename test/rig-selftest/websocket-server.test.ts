import { channel } from 'node:diagnostics_channel';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { ping, WebSocket } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { listenLoopback, type Loopback } from '../rig/loopback.js';
import { waitFor } from '../rig/wait-for.js';
import { acceptWebSocket, type WsConnection } from '../rig/websocket-server.js';

describe('minimal WebSocket server (for the fake Socket Mode server)', () => {
  let loopback: Loopback;
  let conns: WsConnection[];
  let client: WebSocket | undefined;

  async function start(): Promise<string> {
    conns = [];
    const server = createServer();
    server.on('upgrade', (req, socket) => {
      const ws = acceptWebSocket(req, socket);
      if (!ws) return;
      conns.push(ws);
      ws.onMessage((text) => ws.send(`echo:${text}`));
    });
    loopback = await listenLoopback(server);
    return `ws://127.0.0.1:${loopback.port}/`;
  }

  afterEach(async () => {
    client?.close();
    for (const c of conns) c.terminate();
    await loopback.close();
  });

  it('talks text both ways with undici’s WebSocket client, large messages included', async () => {
    client = new WebSocket(await start());
    const received: string[] = [];
    client.addEventListener('message', (e) => received.push(String(e.data)));
    await new Promise((resolve) => client!.addEventListener('open', resolve));
    const big = 'x'.repeat(70_000); // 64-bit length frame
    client.send('hello');
    client.send(big);
    client.send('ü✓');
    await waitFor(() => received.length === 3);
    expect(received).toEqual(['echo:hello', `echo:${big}`, 'echo:ü✓']);
  });

  it('answers pings with pongs (Socket Mode clients ping every few seconds)', async () => {
    client = new WebSocket(await start());
    await new Promise((resolve) => client!.addEventListener('open', resolve));
    const pongs: string[] = [];
    const onPong = (m: unknown) => pongs.push(String((m as { payload: Buffer }).payload));
    channel('undici:websocket:pong').subscribe(onPong);
    try {
      ping(client, Buffer.from('are you there'));
      await waitFor(() => pongs.includes('are you there'));
    } finally {
      channel('undici:websocket:pong').unsubscribe(onPong);
    }
  });

  it('completes the close handshake either way', async () => {
    client = new WebSocket(await start());
    await new Promise((resolve) => client!.addEventListener('open', resolve));
    const closed = new Promise<number>((resolve) => client!.addEventListener('close', (e) => resolve(e.code)));
    conns[0]!.close(4000, 'bye');
    expect(await closed).toBe(4000);

    client = new WebSocket(`ws://127.0.0.1:${loopback.port}/`);
    await new Promise((resolve) => client!.addEventListener('open', resolve));
    const serverSaw = new Promise<number>((resolve) => conns[1]!.onClose(resolve));
    client.close(1000);
    expect(await serverSaw).toBe(1000);
  });

  it('refuses a plain HTTP request and unmasked client frames', async () => {
    await start();
    const res = await fetch(`http://127.0.0.1:${loopback.port}/`, { headers: { connection: 'upgrade', upgrade: 'nonsense' } }).catch(() => undefined);
    expect(res === undefined || res.status >= 400).toBe(true);
    const raw = connect(loopback.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.write('GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n');
    await waitFor(() => Buffer.concat(chunks).includes('\r\n\r\n'));
    expect(Buffer.concat(chunks).toString()).toContain('Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
    raw.write(Buffer.from([0x81, 0x02, 0x68, 0x69])); // "hi", unmasked
    await new Promise((resolve) => raw.on('close', resolve));
    const all = Buffer.concat(chunks);
    const closeFrame = all.subarray(all.indexOf('\r\n\r\n') + 4);
    expect(closeFrame[0]).toBe(0x88); // FIN + close
    expect(closeFrame.readUInt16BE(2)).toBe(1002);
  });
});
