-- A request made for a wallet on the person's own device (redirect_uri) releases its result only
-- with the response code the wallet's redirect carried (OpenID4VP 1.0 §13.3): its SHA-256 is kept,
-- set when a verified answer closes the request, so a copy of the database releases nothing.
ALTER TABLE "PresentationRequest" ADD COLUMN "responseCodeHash" TEXT;
