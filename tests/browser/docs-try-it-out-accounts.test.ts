import { describeTryItOut, UTILITY_SECTIONS } from '../support/try-it-out.js';

describeTryItOut(
  'users, tokens, usage, audit, mail, webhooks and the system',
  (section) => !UTILITY_SECTIONS.includes(section),
);
