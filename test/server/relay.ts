// A server that goes away and comes back, for the storage and readiness tests.
import { createServer, Socket, type Server } from 'node:net';

/** A TCP relay to a server (PostgreSQL, Redis) that can cut every connection and refuse new ones: a server that goes away and comes back. */
export async function relay(target: URL): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let server: Server;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((socket) => {
        const upstream = new Socket();
        sockets.add(socket).add(upstream);
        upstream.connect(Number(target.port), target.hostname);
        socket.pipe(upstream).pipe(socket);
        const drop = () => {
          socket.destroy();
          upstream.destroy();
        };
        socket.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as { port: number }).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      server.close(() => resolve());
    });
  await listen();
  const url = new URL(target);
  url.host = `127.0.0.1:${port}`;
  return { url: url.toString(), cut: stop, restore: listen, close: stop };
}
