// Baseline: Express 5 parsing a JSON body and answering JSON, nothing else.
import express from 'express';

const app = express();
app.use(express.json());
app.get('/health', (_req, res) => res.json({ status: 'ok' }));
app.post('/echo', (req, res) => {
  res.json({ hello: 'world', received: Array.isArray(req.body?.presets) ? req.body.presets.length : 0 });
});
app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
