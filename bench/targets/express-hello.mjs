// Baseline: Express 5 answering a similar JSON body with no middleware. With HELLO_SERVER=svc it is
// served by the services' own server construction (@svc/http's createHttpServer) instead of
// app.listen, which shows how much of a service's figure comes from that alone.
import express from 'express';
import { createHttpServer } from '@svc/http';

const app = express();
const body = { wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7', is_human: true, user_id: '3e426adb-668f-4f44-a087-e853c8d5489e' };
app.get('/v1/human/verify', (_req, res) => {
  res.json(body);
});
const server = process.env.HELLO_SERVER === 'svc' ? createHttpServer(app) : app;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
