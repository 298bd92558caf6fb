import type { RouteSampleTable } from '../../platform/http/route-samples.js';

/** One address or a list, with display names or without; now and then no address at all, or a malformed name-addr. */
const recipients = {
  often: [
    'ada@example.com',
    ['ada@example.com', 'grace@example.org'],
    'grace@bücher.example',
    '"Ada Lovelace" <ada@example.com>',
    ['Grace Hopper <grace@example.org>', { name: 'Zoë – 中文', address: 'zoe@example.com' }],
  ],
  seldom: ['"Ada <ada@example.com>', 'Ada <ada@example.com', { name: 'Ada' }, 'nobody', []],
  times: 8,
};

/** "Hello, world\n" as a file of each kind; now and then base64 that is not canonical, a type off the list, or a path. */
const HELLO = 'SGVsbG8sIHdvcmxkCg==';
const attachments = {
  often: [
    [{ filename: 'hello.txt', contentType: 'text/plain', content: HELLO }],
    [
      { filename: 'report.csv', contentType: 'text/csv', content: 'YSxiCjEsMgo=' },
      { filename: 'Rechnung März.pdf', contentType: 'application/pdf', content: 'JVBERi0xLjQK' },
    ],
  ],
  seldom: [
    [{ filename: 'hello.txt', contentType: 'text/plain', content: 'SGVsbG8' }],
    [{ filename: 'page.html', contentType: 'text/html', content: HELLO }],
    [{ filename: '../hello.txt', contentType: 'text/plain', content: HELLO }],
    [],
  ],
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
      replyTo: ['help@example.com', ['help@example.com'], 'Help Desk <help@example.com>'],
      fromName: ['Support', 'Zoë at Support'],
      attachments,
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
