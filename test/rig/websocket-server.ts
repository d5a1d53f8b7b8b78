/**
 * A minimal RFC 6455 WebSocket server endpoint on node:http's `upgrade` event, enough for a
 * fake Socket Mode server: text frames (fragmented or not), ping → pong, close handshake.
 * No extensions (permessage-deflate is simply not accepted), no subprotocols. Test code only:
 * the `ws` package is not installed, and @slack/socket-mode's client is undici's WebSocket.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const OP = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

export interface WsConnection {
  readonly isOpen: boolean;
  send(text: string): void;
  /** Starts the close handshake; the peer's close frame (or a timeout) ends the socket. */
  close(code?: number, reason?: string): void;
  /** Drops the TCP connection without a close frame (a network failure). */
  terminate(): void;
  onMessage(listener: (text: string) => void): void;
  onClose(listener: (code: number) => void): void;
}

function frame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const header = len < 126 ? Buffer.alloc(2) : len < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  header[0] = 0x80 | opcode;
  if (len < 126) header[1] = len;
  else if (len < 65536) {
    header[1] = 126;
    header.writeUInt16BE(len, 2);
  } else {
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(len), 2);
  }
  return Buffer.concat([header, payload]);
}

/** Completes the handshake for `req`; returns undefined (after answering 400) if it is not a WebSocket request. */
export function acceptWebSocket(req: IncomingMessage, socket: Duplex): WsConnection | undefined {
  const key = req.headers['sec-websocket-key'];
  if (typeof key !== 'string' || req.headers.upgrade?.toLowerCase() !== 'websocket') {
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    return undefined;
  }
  const accept = createHash('sha1').update(key + GUID).digest('base64');
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);

  const messageListeners: Array<(text: string) => void> = [];
  const closeListeners: Array<(code: number) => void> = [];
  let open = true;
  let closeSent = false;
  let closedCode = 1006;
  let buffer = Buffer.alloc(0);
  let fragments: Buffer[] = [];

  const write = (opcode: number, payload: Buffer) => {
    if (!socket.destroyed) socket.write(frame(opcode, payload));
  };
  const sendClose = (code: number, reason = '') => {
    if (closeSent) return;
    closeSent = true;
    open = false;
    const payload = Buffer.alloc(2 + Buffer.byteLength(reason));
    payload.writeUInt16BE(code, 0);
    payload.write(reason, 2);
    write(OP.close, payload);
  };

  const onFrame = (fin: boolean, opcode: number, payload: Buffer) => {
    if (opcode === OP.ping) return write(OP.pong, payload);
    if (opcode === OP.pong) return;
    if (opcode === OP.close) {
      closedCode = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
      sendClose(closedCode === 1005 ? 1000 : closedCode);
      socket.end();
      return;
    }
    if (opcode === OP.text || opcode === OP.binary) fragments = [payload];
    else if (opcode === OP.continuation) fragments.push(payload);
    if (!fin) return;
    const text = Buffer.concat(fragments).toString('utf8');
    fragments = [];
    for (const listener of messageListeners) listener(text);
  };

  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      if (buffer.length < 2) return;
      const b0 = buffer[0] as number;
      const b1 = buffer[1] as number;
      let len = b1 & 0x7f;
      let offset = 2;
      if (len === 126) {
        if (buffer.length < 4) return;
        len = buffer.readUInt16BE(2);
        offset = 4;
      } else if (len === 127) {
        if (buffer.length < 10) return;
        len = Number(buffer.readBigUInt64BE(2));
        offset = 10;
      }
      const masked = (b1 & 0x80) !== 0;
      if (!masked) {
        sendClose(1002, 'client frames must be masked');
        socket.end();
        return;
      }
      if (buffer.length < offset + 4 + len) return;
      const mask = buffer.subarray(offset, offset + 4);
      const payload = Buffer.from(buffer.subarray(offset + 4, offset + 4 + len));
      for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] as number) ^ (mask[i % 4] as number);
      buffer = buffer.subarray(offset + 4 + len);
      onFrame((b0 & 0x80) !== 0, b0 & 0x0f, payload);
    }
  });
  socket.on('error', () => socket.destroy());
  socket.on('close', () => {
    open = false;
    for (const listener of closeListeners) listener(closedCode);
  });

  return {
    get isOpen() {
      return open && !socket.destroyed;
    },
    send: (text) => {
      if (!open) throw new Error('WebSocket is not open');
      write(OP.text, Buffer.from(text, 'utf8'));
    },
    close: (code = 1000, reason = '') => {
      sendClose(code, reason);
      setTimeout(() => socket.destroy(), 1000).unref();
    },
    terminate: () => socket.destroy(),
    onMessage: (listener) => void messageListeners.push(listener),
    onClose: (listener) => void closeListeners.push(listener),
  };
}
