// Who a mail of this service says it comes from, the same way in every mail and language.

export interface Sender {
  issuer: string;
  /** IDP_DISPLAY_NAME, when set. */
  provider?: string | undefined;
  sandbox: boolean;
}

/** A subject, marked when it comes from the sandbox, so a test mail is never taken for a real one. */
export const mailSubject = (sender: Sender, text: string) => (sender.sandbox ? `[Sandbox] ${text}` : text);

/** The service as a mail names it: its name and host, not a link (the one link of a mail is the one to follow). */
export const mailOrigin = (sender: Sender) => {
  const host = new URL(sender.issuer).host;
  const notes = [...(sender.provider ? [host] : []), ...(sender.sandbox ? ['sandbox'] : [])];
  return `${sender.provider ?? host}${notes.length ? ` (${notes.join(', ')})` : ''}`;
};

/** This deployment as the sender of its mails. */
export const senderOf = (deps: { config: { issuer: string; provider: { name?: string | undefined } }; environment: { sandbox: boolean } }): Sender => ({
  issuer: deps.config.issuer,
  provider: deps.config.provider.name,
  sandbox: deps.environment.sandbox,
});
