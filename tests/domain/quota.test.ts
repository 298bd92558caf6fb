import { expect } from 'chai';
import { quotaPeriodAt, withinQuota } from '../../src/domain/identity/quota.js';

describe('domain: quotas', () => {
  it('finds the UTC day and the calendar month a moment falls in', () => {
    const moment = Date.UTC(2028, 1, 29, 23, 59, 59, 999);
    expect(quotaPeriodAt(moment, 'day')).to.deep.equal({
      startsAt: Date.UTC(2028, 1, 29),
      endsAt: Date.UTC(2028, 2, 1),
    });
    expect(quotaPeriodAt(moment, 'month')).to.deep.equal({
      startsAt: Date.UTC(2028, 1, 1),
      endsAt: Date.UTC(2028, 2, 1),
    });
    expect(quotaPeriodAt(Date.UTC(2026, 11, 31, 12), 'month').endsAt).to.equal(Date.UTC(2027, 0, 1));
    expect(quotaPeriodAt(Date.UTC(2026, 10, 27), 'day').startsAt).to.equal(Date.UTC(2026, 10, 27));
  });

  it('holds a quota within a ceiling in any day and any month', () => {
    expect(withinQuota({ requests: 5, per: 'day' }, null)).to.equal(true);
    expect(withinQuota(null, { requests: 5, per: 'day' })).to.equal(false);
    expect(withinQuota({ requests: 5, per: 'day' }, { requests: 5, per: 'day' })).to.equal(true);
    expect(withinQuota({ requests: 6, per: 'day' }, { requests: 5, per: 'day' })).to.equal(false);
    expect(withinQuota({ requests: 5, per: 'month' }, { requests: 5, per: 'day' })).to.equal(true);
    expect(withinQuota({ requests: 6, per: 'month' }, { requests: 5, per: 'day' })).to.equal(false);
    expect(withinQuota({ requests: 10, per: 'day' }, { requests: 310, per: 'month' })).to.equal(true);
    expect(withinQuota({ requests: 10, per: 'day' }, { requests: 309, per: 'month' })).to.equal(false);
  });
});
