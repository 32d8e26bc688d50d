// Baseline: Express 5 parsing a form POST and answering a small JSON body.
import express from 'express';

const app = express();
app.use(express.urlencoded({ extended: false }));
app.post('/token', (req, res) => {
  res.json({ ok: true, grant: req.body.grant_type });
});
app.get('/health', (_req, res) => void res.json({ ok: true }));
app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
