// A real SMTP server in this process (smtp-server): the mail the identity provider sends arrives
// here, and a test reads it, and follows its link, as the person would.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  links: string[];
}

/** The body as its transfer encoding left it, decoded (nodemailer picks quoted-printable or base64 for text). */
function decodeBody(headers: string, body: string): string {
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** A header's RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`), as nodemailer writes a subject beyond ASCII, decoded. */
function decodeWords(value: string): string {
  return value.replace(/=\?UTF-8\?([QB])\?([^?]*)\?=\s*/gi, (_, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_h, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

function parse(raw: string, envelope: { from: string; to: string[] }): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const text = decodeBody(headers, raw.slice(split + 4)).replace(/\r\n/g, '\n');
  const subject = decodeWords(/^subject:\s*(.*)$/im.exec(headers)?.[1] ?? '');
  return { ...envelope, subject, text, links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [] };
}

/** Starts an SMTP server on a free loopback port: its SMTP_URL, what it received, and a way to wait for mail to one address. */
export async function startSmtpInbox() {
  const received: ReceivedMail[] = [];
  const waiting: { to: string; resolve: (m: ReceivedMail) => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mail = parse(Buffer.concat(chunks).toString('latin1'), {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
        });
        received.push(mail);
        for (const w of waiting.filter((w) => mail.to.includes(w.to))) {
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve(mail);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The next mail to `to` (or one already here that no earlier call took). */
    next(to: string, ms = 5_000): Promise<ReceivedMail> {
      const here = received.find((m) => m.to.includes(to) && !taken.has(m));
      if (here) {
        taken.add(here);
        return Promise.resolve(here);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail to ${to} within ${ms} ms`)), ms);
        waiting.push({
          to,
          resolve: (m) => {
            clearTimeout(timer);
            taken.add(m);
            resolve(m);
          },
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
const taken = new Set<ReceivedMail>();
