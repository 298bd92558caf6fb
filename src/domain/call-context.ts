/**
 * Which of our requests a call to an outside system serves, so that its failure can be traced
 * to that request in the logs. Every port that calls out takes it; it never changes an answer.
 */
export interface CallContext {
  readonly requestId?: string;
}
