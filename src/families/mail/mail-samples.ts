import type { RouteSampleTable } from '../../platform/http/route-samples.js';

/** One address or a list; now and then no address at all. */
const recipients = {
  often: ['ada@example.com', ['ada@example.com', 'grace@example.org'], 'grace@bücher.example'],
  seldom: ['Ada <ada@example.com>', 'nobody', []],
  times: 8,
};

export const mailSamples: RouteSampleTable = {
  'POST /mail/send': {
    example: {
      headers: { 'idempotency-key': 'order-1042' },
      body: {
        to: 'ada@example.com',
        subject: 'Your order',
        content: '# Thank you\n\nYour order *1042* is on its way.',
      },
    },
    headers: { 'idempotency-key': ['order-1', 'order-2', 'k'.repeat(255)] },
    body: {
      to: recipients,
      subject: ['Hello', 'Order 42 ☕', 'Hello', 'Hi {{name}}'],
      content: ['# Hello\n\nThanks for your *order*.', '<script>alert(1)</script>', 'Thanks', 'Dear {{name}}'],
      cc: recipients,
      bcc: recipients,
      replyTo: ['help@example.com', ['help@example.com']],
      fromName: ['Support', 'Zoë at Support'],
    },
  },
  'GET /mail/status': {
    query: { id: { existing: 'message', otherwise: ['00000000-0000-4000-8000-000000000000'] } },
  },
  'GET /mail/list': {
    // A first page, as a person asks for one: no status, no cursor.
    example: { query: { limit: '20' } },
    query: {
      status: { often: ['sent', 'queued', 'failed'], seldom: ['bounced', ''] },
      limit: { often: ['20', '1', '100'], seldom: ['0', '101', 'ten'] },
      cursor: ['1767225600000.00000000-0000-4000-8000-000000000000', 'not a cursor'],
    },
  },
};
