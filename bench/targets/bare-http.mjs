// Baseline: the cheapest possible JSON answer from node:http.
import { createServer } from 'node:http';

const body = JSON.stringify({ wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7', is_human: true, user_id: '3e426adb-668f-4f44-a087-e853c8d5489e' });
createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
