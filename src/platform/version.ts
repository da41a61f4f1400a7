/** The service version, read once from package.json (reported by /health and the OpenAPI document). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const VERSION: string = require('../../package.json').version;
