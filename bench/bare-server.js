// The baseline for bench/crypto.ts: bare Koa + @koa/router doing the same AES-256-GCM work as
// GET /api/crypto/enc, minus authentication, request ids, logging and the route table.
// Plain JavaScript so that, like dist/main.js, it runs on bare `node` with no loader in the way.
import { Buffer } from 'node:buffer';
import { createCipheriv, randomBytes } from 'node:crypto';
import process from 'node:process';
import Router from '@koa/router';
import Koa from 'koa';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

// The bench passes the key so that it can check the output really is a ciphertext of the input.
const key = process.env.BENCH_AES_KEY ? Buffer.from(process.env.BENCH_AES_KEY, 'base64') : randomBytes(32);
if (key.length !== 32) {
  process.stderr.write('bare-server: BENCH_AES_KEY must be base64 of 32 bytes\n');
  process.exit(1);
}
const port = Number(process.env.PORT ?? '0');

const app = new Koa();
const router = new Router();

router.get('/enc', (ctx) => {
  const data = ctx.query.data;
  ctx.type = 'text/plain';
  if (typeof data !== 'string') {
    ctx.status = 400;
    ctx.body = 'exactly one data parameter is required';
    return;
  }
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  const body = Buffer.concat([cipher.update(data, 'utf8'), cipher.final()]);
  ctx.body = Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url');
});

router.get('/hello', (ctx) => {
  ctx.type = 'text/plain';
  ctx.body = 'hello';
});

app.use(router.routes());

const server = app.listen(port, '127.0.0.1');
server.on('error', (error) => {
  process.stderr.write(`bare-server: cannot listen on 127.0.0.1:${port}: ${error.message}\n`);
  process.exit(1);
});
process.on('SIGTERM', () => process.exit(0));
