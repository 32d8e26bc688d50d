import type { Request } from 'express';

/** A browser form post (the hosted pages), as opposed to a JSON API call. */
export const isForm = (req: Request) => Boolean(req.is('application/x-www-form-urlencoded'));

/** A browser navigation: its Accept prefers HTML to JSON. */
export const wantsHtml = (req: Request) => req.accepts(['json', 'html']) === 'html';
