import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A webhook receiver on loopback: a plain node:http server that keeps what it gets and answers as told. */
export interface WebhookReceiver {
  /** `http://<host>:<port>` */
  readonly url: string;
  readonly received: Received[];
  /** The status of the next answers; `answers`, when not empty, is used first, one per request. */
  status: number;
  readonly answers: number[];
  /**
   * Answers for the requests to one path, used before `answers`: a test that owns a path is not
   * thrown by a late delivery of another test's endpoint taking its answer.
   */
  readonly answersByPath: Map<string, number[]>;
  /** Where a 3xx points. */
  location?: string;
  /** How long each answer is held back, so that deliveries are in flight for a while. */
  delayMs: number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(host: string): Promise<WebhookReceiver> {
  const receiver = {
    received: [] as Received[],
    status: 200,
    answers: [] as number[],
    answersByPath: new Map<string, number[]>(),
    delayMs: 0,
  } as WebhookReceiver & {
    url: string;
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      receiver.received.push({
        method: request.method!,
        path: request.url!,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const status = receiver.answersByPath.get(request.url!)?.shift() ?? receiver.answers.shift() ?? receiver.status;
      const answer = () => {
        response.writeHead(status, receiver.location ? { location: receiver.location } : {});
        response.end('thanks');
      };
      if (receiver.delayMs > 0) setTimeout(answer, receiver.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** The Standard Webhooks headers of a delivery, as a receiver's library takes them. */
export const signatureHeadersOf = (received: Received): Record<string, string> => ({
  'webhook-id': String(received.headers['webhook-id']),
  'webhook-timestamp': String(received.headers['webhook-timestamp']),
  'webhook-signature': String(received.headers['webhook-signature']),
});
