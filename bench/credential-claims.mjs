// The claims every credential benchmark signs: `n` of them, strings, numbers and booleans.
export const claimsOf = (n) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`claim_${i}`, i % 3 === 0 ? `value ${i}` : i % 3 === 1 ? i * 1.5 : i % 2 === 0]));
export const SUBJECT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
