import type { AttemptOutcome, WebhookRequest, WebhookSender } from '../domain/ports.js';

/**
 * Keeps every request in this process and answers each as `answer` says (200 unless told): a
 * receiver's status, or why none answered. For a library user's tests.
 */
export class MemoryWebhookSender implements WebhookSender {
  readonly sent: WebhookRequest[] = [];

  constructor(public answer: number | { readonly failure: string } = 200) {}

  async send(request: WebhookRequest): Promise<AttemptOutcome> {
    this.sent.push(request);
    return typeof this.answer === 'number'
      ? { kind: 'answered', status: this.answer, durationMs: 0 }
      : { kind: 'failed', reason: this.answer.failure, durationMs: 0 };
  }
}
