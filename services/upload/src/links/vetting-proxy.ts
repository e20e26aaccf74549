import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { pipeline, Transform, type Duplex } from 'node:stream';
import { checkDestination, RefusedDestination, type DestinationPolicy } from '@frametext/service-kit';

/*
 * The only way out for a fetch of a video by link. yt-dlp follows redirects, and a site's extractor calls APIs and
 * media hosts of its own choosing, so checking the link once before the fetch would vet one address of many. Every
 * connection yt-dlp makes goes through this proxy instead (its --proxy): HTTPS as a CONNECT tunnel, plain http (local
 * hosts only) as an absolute-form request. Each target is checked with the webhooks' rules (checkDestination: its
 * host resolved once, every address public, or one of the local hosts), and the connection is made to the very
 * address that was checked, so DNS cannot answer differently in between. It listens on loopback only and takes
 * requests that carry its own random credentials only. It also counts the bytes that come in, a size cap that holds
 * whatever the site says its file's size is.
 */

export interface VettingProxy {
  /** The proxy's address with its credentials, for yt-dlp's --proxy. */
  url: string;
  /** Bytes received from the targets so far. */
  bytesIn(): number;
  /** Why the first refused target was refused, a sentence a person can read. */
  refusal(): string | undefined;
  close(): Promise<void>;
}

export interface VettingProxyOptions {
  policy: DestinationPolicy;
  /** Once more than this has come in, every connection is cut and `onLimit` is called once. */
  maxBytesIn: number;
  onLimit(): void;
}

const PROXY_USER = 'frametext';

function hostPort(authority: string): { host: string; port: number } | undefined {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
  if (!m) return undefined;
  const port = Number(m[2]);
  return port > 0 && port < 65536 ? { host: m[1]!, port } : undefined;
}

export async function startVettingProxy(opts: VettingProxyOptions): Promise<VettingProxy> {
  const secret = randomBytes(18).toString('base64url');
  const expected = `Basic ${Buffer.from(`${PROXY_USER}:${secret}`).toString('base64')}`;
  const sockets = new Set<Duplex>();
  let received = 0;
  let refused: string | undefined;
  let overLimit = false;

  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const count = (bytes: number) => {
    received += bytes;
    if (received > opts.maxBytesIn && !overLimit) {
      overLimit = true;
      for (const s of sockets) s.destroy();
      opts.onLimit();
    }
  };
  /** Passes bytes through, counting them (and keeping backpressure: nothing is read faster than it is passed on). */
  const counter = () =>
    new Transform({
      transform(chunk: Buffer, _enc, done) {
        count(chunk.length);
        done(null, chunk);
      },
    });
  const vet = async (url: string) => {
    try {
      return await checkDestination(url, opts.policy);
    } catch (err) {
      if (err instanceof RefusedDestination) refused ??= err.message;
      throw err;
    }
  };

  const server = http.createServer((req, res) => {
    // Plain http: the request line holds the whole URL (absolute form).
    if (req.headers['proxy-authorization'] !== expected || !/^http:\/\//i.test(req.url ?? '') || overLimit) {
      res.writeHead(407).end();
      return;
    }
    const target = req.url!;
    vet(target).then(
      (dest) => {
        const headers = { ...req.headers };
        delete headers['proxy-authorization'];
        delete headers['proxy-connection'];
        const upstream = http.request({
          host: dest.address,
          family: dest.family,
          port: dest.url.port || 80,
          method: req.method,
          path: `${dest.url.pathname}${dest.url.search}`,
          headers: { ...headers, host: dest.url.host },
          agent: false,
        });
        upstream.on('response', (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          // A client that stops reading (yt-dlp looks at the headers, then asks again) ends the upstream request too.
          pipeline(answer, counter(), res, () => upstream.destroy());
        });
        upstream.on('error', () => res.destroy());
        if (upstream.socket) track(upstream.socket);
        upstream.on('socket', track);
        req.pipe(upstream);
      },
      () => res.writeHead(403, { 'content-type': 'text/plain' }).end('address not allowed'),
    );
  });

  server.on('connect', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    const target = hostPort(req.url ?? '');
    if (req.headers['proxy-authorization'] !== expected || !target || overLimit) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
      return;
    }
    vet(`https://${target.host}:${target.port}/`).then(
      (dest) => {
        const upstream = net.connect({ host: dest.address, port: target.port, family: dest.family });
        track(upstream);
        upstream.on('connect', () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (head.length > 0) upstream.write(head);
          pipeline(upstream, counter(), client, () => client.destroy());
          pipeline(client, upstream, () => upstream.destroy());
        });
        upstream.on('error', () => client.destroy());
        client.on('close', () => upstream.destroy());
      },
      () => client.end('HTTP/1.1 403 Forbidden\r\n\r\n'),
    );
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://${PROXY_USER}:${secret}@127.0.0.1:${port}`,
    bytesIn: () => received,
    refusal: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
