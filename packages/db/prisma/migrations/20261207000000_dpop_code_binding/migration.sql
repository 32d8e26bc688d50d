-- RFC 9449 §10: an authorization request may name the DPoP key (dpop_jkt) its code is bound to, or
-- a pushed request may carry a DPoP proof; the code is then exchanged only with a proof of that key.
ALTER TABLE "Authorization" ADD COLUMN "dpopJkt" TEXT;
