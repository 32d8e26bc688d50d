export { compileQuery, type CompiledQuery } from './compile.js';
export { QueryError } from './errors.js';
export { OPERATORS, type Operator } from './operators.js';
export { parseClaim, readPath, type ClaimPath } from './claim-path.js';
export { strictEquals, compare, asDate } from './values.js';
export * from './types.js';
