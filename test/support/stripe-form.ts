/** A decoded form value: a string, or an object built from bracketed keys (`metadata[topUpId]=...`). */
export type FormValue = string | FormParams;
export interface FormParams {
  [key: string]: FormValue;
}

/** A body or query string Stripe would refuse; the message says what is wrong. */
export class FormSyntaxError extends Error {}

/**
 * Parses `application/x-www-form-urlencoded` the way Stripe reads it: `a[b][c]=v`
 * nests objects, `+` is a space, brackets may arrive percent-encoded or not.
 * Lists (`expand[0]=...`) come back as objects keyed by index: which parameters
 * are lists is the API schema's business, not the encoding's. A key repeated with
 * a scalar value keeps the last one; a key used both as a scalar and as an object
 * is refused.
 */
export function parseStripeForm(encoded: string): FormParams {
  const params: FormParams = {};
  for (const pair of encoded.split('&')) {
    if (pair === '') continue;
    const separator = pair.indexOf('=');
    const rawKey = separator === -1 ? pair : pair.slice(0, separator);
    const rawValue = separator === -1 ? '' : pair.slice(separator + 1);
    const path = keyPath(decode(rawKey));
    assign(params, path, decode(rawValue));
  }
  return params;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw new FormSyntaxError(`Invalid percent-encoding in ${JSON.stringify(text)}`);
  }
}

/** `a[b][c]` → `['a', 'b', 'c']`. */
function keyPath(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) throw new FormSyntaxError(`Invalid parameter name ${JSON.stringify(key)}`);
  const segments = [...match[2].matchAll(/\[([^[\]]*)\]/g)].map((segment) => segment[1]);
  if (segments.includes('')) throw new FormSyntaxError(`Empty brackets in ${JSON.stringify(key)}: index list items (a[0]=...)`);
  return [match[1], ...segments];
}

function assign(params: FormParams, path: string[], value: string): void {
  let parent = params;
  for (const [depth, segment] of path.entries()) {
    const name = path.slice(0, depth + 1).join('.');
    const existing = Object.hasOwn(parent, segment) ? parent[segment] : undefined;
    if (depth === path.length - 1) {
      if (typeof existing === 'object') throw new FormSyntaxError(`${name} is both a value and an object`);
      setOwn(parent, segment, value);
      return;
    }
    if (typeof existing === 'string') throw new FormSyntaxError(`${name} is both a value and an object`);
    const child = existing ?? {};
    setOwn(parent, segment, child);
    parent = child;
  }
}

/** An own property even for `__proto__`: a key from the wire never reaches a prototype. */
function setOwn(target: FormParams, key: string, value: FormValue): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
