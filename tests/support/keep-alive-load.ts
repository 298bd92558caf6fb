import { Agent, get as httpGet } from 'node:http';

/**
 * Keep-alive clients hammering the encrypt endpoint while something happens to the server (a
 * SIGTERM): what the e2e lifecycle test asserts and bench/lifecycle.ts counts over many runs.
 */

export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

export function getWith(agent: Agent, url: string, token: string): Promise<Answer> {
  return new Promise((resolveAnswer, reject) => {
    const request = httpGet(url, { agent, headers: { Authorization: `Bearer ${token}` } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolveAnswer({ status: response.statusCode!, headers: response.headers, body }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

export interface LoadOutcome {
  /** Complete 200 answers with a ciphertext. */
  answered: number;
  /** Clients told ECONNREFUSED on a new connection, once the server had stopped listening. */
  refused: number;
  /** Anything else: a reset, a hang-up, a wrong or cut answer. Must stay empty. */
  failures: string[];
}

/**
 * `clients` keep-alive clients, each with a connection of its own, each sending up to
 * `requestsPerClient` requests one after the other; `then` runs once when `afterAnswers`
 * answers have come back in all. A client stops at its first refusal or failure.
 */
export async function hammer(
  baseUrl: string,
  token: string,
  clients: number,
  requestsPerClient: number,
  afterAnswers: number,
  then: () => void,
): Promise<LoadOutcome> {
  const outcome: LoadOutcome = { answered: 0, refused: 0, failures: [] };
  const client = async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let sent = 0; sent < requestsPerClient; sent++) {
        try {
          const answer = await getWith(agent, `${baseUrl}/api/crypto/enc?data=drain`, token);
          if (answer.status !== 200 || !/^[A-Za-z0-9_-]+$/.test(answer.body)) {
            outcome.failures.push(`answered ${answer.status} ${answer.body}`);
            return;
          }
          outcome.answered += 1;
          if (outcome.answered === afterAnswers) then();
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ECONNREFUSED') outcome.refused += 1;
          else outcome.failures.push(`${code}: ${(error as Error).message}`);
          return;
        }
      }
    } finally {
      // A finished client lets go of its connection, as a program that exits would.
      agent.destroy();
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return outcome;
}
