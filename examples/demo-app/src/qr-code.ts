import QRCode from 'qrcode';

/** A link as a QR code for a phone's wallet to scan (SVG markup: paths only, no text or script). */
export const qrSvg = (link: string): Promise<string> => QRCode.toString(link, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
