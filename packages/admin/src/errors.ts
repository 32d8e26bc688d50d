/** A failure the operator can fix: printed as one line, exit code 1, nothing changed. */
export class AdminError extends Error {
  override name = 'AdminError';
}
