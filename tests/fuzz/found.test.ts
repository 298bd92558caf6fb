import { expect } from 'chai';
import { rawRequest, serverForSuite } from '../support/http-server.js';

/** What the route-table fuzz suite found that is not yet fixed, each as the smallest request that shows it. */
describe('fuzz: found by the route-table fuzz suite', () => {
  const suite = serverForSuite();

  // KNOWN FAILURE, for the lead (src/adapters/http/server.ts, clientError): bytes after a complete
  // request form the next request; when they are malformed, the parser's 400 code 9 is written to
  // the socket at once and the socket closed, before the answer to the request still being handled.
  // The client sees "400, code 9" for a DELETE that did delete (the fuzz suite sent a DELETE with
  // a body and no Content-Length). Responses must come in the order of the requests: the 200 first.
  it.skip('answers a request before the malformed bytes that follow it on the same connection', async () => {
    const { secret, uid } = await suite.server.userWithToken(['*']);
    const response = await rawRequest(suite.server.port, `DELETE /api/user/delete HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${secret}\r\n\r\nnul`);
    expect(response.status, response.body).to.equal(200);
    expect(JSON.parse(response.body.split('HTTP/1.1')[0]!)).to.deep.equal({ deleted: true, uid });
  });
});
