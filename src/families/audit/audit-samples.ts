import { mostly, type RouteSampleTable } from '../../platform/http/route-samples.js';

const instant = mostly(['2026-11-26', '2026-11-26T13:00:00Z'], ['2026-02-30', '2026-11-26T13:00:00', 'yesterday', '']);

export const auditSamples: RouteSampleTable = {
  'GET /audit': {
    example: { query: { action: 'token.create', limit: '20' } },
    query: {
      actor: { existing: 'user', otherwise: ['nobody', '', 'x'.repeat(65)] },
      target: { existing: 'token', otherwise: ['00000000-0000-4000-8000-000000000000', ''] },
      action: mostly(['user.update', 'token.create', 'login.password'], ['user.updated', 'USER.UPDATE', '']),
      from: instant,
      to: instant,
      limit: mostly(['1', '20', '100'], ['0', '101', '-1', '1.5', 'ten']),
      cursor: mostly(['1', '42'], ['0', '-1', 'abc', '99999999999999999']),
    },
  },
};
