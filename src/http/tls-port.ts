// One port for HTTPS and for the plain-HTTP mistake: a client that speaks plain HTTP to the TLS
// port (curl http://localhost:8443/...) gets a short plain-text answer naming the https address (a
// redirect for GET and HEAD) instead of a connection closed without a word. The first byte of a
// connection tells them apart: a TLS handshake starts with 0x16, an HTTP request with a letter.
import {
  createServer as createHttpServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';

const tlsHandshake = 0x16;

/** Answers plain-HTTP requests with the https address (data is never answered over plain HTTP). */
export function plainHttpAnswer(httpsOrigin: () => string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const target = `${httpsOrigin()}${req.url?.startsWith('/') ? req.url : '/'}`;
    const redirect = req.method === 'GET' || req.method === 'HEAD';
    res.writeHead(redirect ? 301 : 400, {
      'Content-Type': 'text/plain; charset=utf-8',
      Connection: 'close',
      ...(redirect ? { Location: target } : {}),
    });
    res.end(`This port speaks HTTPS only. Use ${target}\n`);
  };
}

export interface TlsPort {
  front: NetServer;
  plain: HttpServer;
  close(): Promise<void>;
}

/** A listener that passes TLS connections to `https` and plain-HTTP ones to a small answering server. */
export function tlsPort(https: HttpsServer, httpsOrigin: () => string, firstByteTimeoutMs: number): TlsPort {
  const plain = createHttpServer({ requestTimeout: firstByteTimeoutMs }, plainHttpAnswer(httpsOrigin));
  const sockets = new Set<Socket>();
  const front = createNetServer((socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // A connection that never says anything is not kept open.
    socket.setTimeout(firstByteTimeoutMs, () => socket.destroy());
    socket.once('data', (chunk: Buffer) => {
      socket.setTimeout(0);
      socket.pause();
      socket.unshift(chunk);
      (chunk[0] === tlsHandshake ? https : plain).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
    socket.on('error', () => socket.destroy());
  });
  // Node starts checking requests against headersTimeout and requestTimeout when a server emits
  // 'listening'; the HTTPS and plain servers never listen themselves (the front does), so they are
  // told when the front is.
  front.once('listening', () => {
    https.emit('listening');
    plain.emit('listening');
  });
  return {
    front,
    plain,
    close: async () => {
      const closed = new Promise<void>((resolve) => front.close(() => resolve()));
      https.closeAllConnections();
      plain.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
