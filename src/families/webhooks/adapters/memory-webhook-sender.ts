import type { AttemptOutcome, WebhookRequest, WebhookSender } from '../domain/ports.js';

/** Keeps every request in this process and answers each with `status` (200): for a library user's tests. */
export class MemoryWebhookSender implements WebhookSender {
  readonly sent: WebhookRequest[] = [];

  constructor(private readonly status = 200) {}

  async send(request: WebhookRequest): Promise<AttemptOutcome> {
    this.sent.push(request);
    return { kind: 'answered', status: this.status, durationMs: 0 };
  }
}
