import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/** How the proxy treats traffic: passes it, or holds every byte (a database that hangs). */
export type ProxyMode = 'pass' | 'hang';

export interface TcpProxy {
  readonly port: number;
  /** Switches every connection, open and new, to `mode`; held bytes flow again on `pass`. */
  set(mode: ProxyMode): void;
  close(): Promise<void>;
}

/** A loopback TCP proxy to `target`, for a peer that stops answering without closing anything. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'pass';
  const sockets = new Set<Socket>();
  const pipes: { from: Socket; to: Socket }[] = [];
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const pipe = (from: Socket, to: Socket) => {
    pipes.push({ from, to });
    from.on('data', (chunk) => {
      if (!to.write(chunk)) from.pause();
    });
    to.on('drain', () => mode === 'pass' && from.resume());
    from.on('end', () => to.end());
    if (mode === 'hang') from.pause();
  };
  const server = createServer((client) => {
    track(client);
    const upstream = connect(target.port, target.host);
    track(upstream);
    pipe(client, upstream);
    pipe(upstream, client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    set(next) {
      mode = next;
      for (const { from } of pipes)
        if (next === 'hang') from.pause();
        else from.resume();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
