/** What the fuzz sends, how it is sent, and how a failing one is printed as curl. */

/** Who sends it: a token of each scope, or none, or one the service must refuse. */
export type CallerKey = 'anonymous' | 'garbage' | 'revoked' | 'read' | 'purchase' | 'download' | 'sell' | 'all';

/** A text the generators have already percent-encoded (raw bytes such as `%FF` must reach the server as they are). */
export interface Encoded {
  encoded: string;
}

export type Body =
  | { kind: 'json'; value: unknown }
  /** Sent byte for byte: broken JSON, invalid UTF-8, another content type. */
  | { kind: 'raw'; contentType: string | null; bytes: Buffer }
  | { kind: 'multipart'; parts: MultipartPart[] };

export type MultipartPart =
  { name: string; value: string } | { name: string; file: Buffer; filename: string; contentType: string; label: string };

export interface FuzzRequest {
  method: string;
  /** The path template, `{name}` per parameter. */
  path: string;
  pathParams: Record<string, string | Encoded>;
  query: [string, string | Encoded][];
  caller: CallerKey;
  /** For the garbage caller: the Authorization header it sends (or null for none). */
  garbageAuthorization?: string | null;
  body?: Body;
  /** What was done to an otherwise valid request, e.g. `body.name: lone surrogate`; empty for a valid one. */
  mutations: Mutation[];
}

export interface Mutation {
  /** `body`, `query`, `path`, `cursor`, `multipart`, `auth`. */
  where: string;
  /** e.g. `lone-surrogate`, `null`, `wrong-type`; with `where`, what a failure is deduplicated by. */
  kind: string;
  /** The field or parameter it hit. */
  target?: string;
}

export interface Sent {
  status: number;
  contentType: string;
  text: string;
}

/**
 * Percent-encodes every byte but the unreserved ones. Lone surrogates become
 * their WTF-8 bytes (%ED%A0%80), which is what a sloppy client would put on the wire.
 */
export function percentEncode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (/[A-Za-z0-9\-._~]/.test(text[i])) {
      out += text[i];
      continue;
    }
    let codePoint = code;
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        codePoint = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    for (const byte of utf8Bytes(codePoint)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function utf8Bytes(cp: number): number[] {
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 63)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
}

const encode = (value: string | Encoded) => (typeof value === 'string' ? percentEncode(value) : value.encoded);

export function urlPath(request: FuzzRequest): string {
  const path = request.path.replace(/\{([^}]+)\}/g, (_, name: string) => encode(request.pathParams[name] ?? ''));
  const query = request.query.map(([name, value]) => `${percentEncode(name)}=${encode(value)}`).join('&');
  return query ? `${path}?${query}` : path;
}

export interface Tokens {
  /** The Authorization header value for a caller; null sends none. */
  authorization(request: FuzzRequest): string | null;
}

let clients = 0;

export async function send(baseUrl: string, request: FuzzRequest, tokens: Tokens): Promise<Sent> {
  // Each request from its own documentation address (the app trusts the proxy header here), so per-route
  // limits such as the device flow's 10 a minute do not answer 429 to nearly all of a run.
  const headers: Record<string, string> = { 'x-forwarded-for': `2001:db8::${(++clients).toString(16)}` };
  const authorization = tokens.authorization(request);
  if (authorization !== null) headers.authorization = authorization;
  let body: string | Uint8Array | FormData | undefined;
  if (request.body?.kind === 'json') {
    headers['content-type'] = 'application/json';
    // JSON.stringify writes lone surrogates as \ud800 escapes, so the text is valid UTF-8.
    body = JSON.stringify(request.body.value);
  } else if (request.body?.kind === 'raw') {
    if (request.body.contentType !== null) headers['content-type'] = request.body.contentType;
    body = new Uint8Array(request.body.bytes);
  } else if (request.body?.kind === 'multipart') {
    const form = new FormData();
    for (const part of request.body.parts) {
      if ('file' in part)
        form.append(part.name, new Blob([new Uint8Array(part.file)], { type: part.contentType }), part.filename);
      else form.append(part.name, part.value);
    }
    body = form;
  }
  const response = await fetch(`${baseUrl}${urlPath(request)}`, {
    method: request.method,
    headers,
    body,
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
}

/** Shell-quotes bytes: plain single quotes when that is exact, ANSI-C `$'...'` otherwise. */
export function shellQuote(input: string | Buffer): string {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const printable = bytes.every((b) => b >= 0x20 && b < 0x7f && b !== 0x27);
  if (printable) return `'${bytes.toString('latin1')}'`;
  let out = "$'";
  for (const b of bytes) {
    if (b === 0x5c) out += '\\\\';
    else if (b === 0x27) out += "\\'";
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return `${out}'`;
}

/** A unit of up to 12 characters repeated 32 times or more: printed as a loop, not spelled out. */
const REPEATED = /([\s\S]{1,12}?)\1{31,}/gu;

/**
 * One shell word for `text`: literal stretches quoted by `quote`, long repetitions
 * as `$(printf ...)` (every byte of the unit as \xHH, so any unit prints exactly).
 */
function shellWord(text: string, quote: (literal: string) => string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(REPEATED)) {
    const [run, unit] = match;
    if (match.index > last) out += quote(text.slice(last, match.index));
    const bytes = [...Buffer.from(unit, 'utf8')].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
    out += `"$(printf '${bytes}%.0s' $(seq ${run.length / unit.length}))"`;
    last = match.index + run.length;
  }
  if (last < text.length || out === '') out += quote(text.slice(last));
  return out;
}

const doubleQuoted = (text: string) => `"${text.replace(/["$`\\]/g, (c) => `\\${c}`)}"`;
const quoted = (text: string) => shellWord(text, shellQuote);

/**
 * A runnable reproduction: `$BASE` is the server, `$TOKEN_<scope>` a token of
 * that scope (ids of seeded resources are the ones this run created).
 */
export function toCurl(request: FuzzRequest, tokens: Tokens): string {
  const url = `"$BASE"${shellWord(urlPath(request), doubleQuoted)}`.replace(/^"\$BASE""/, '"$BASE');
  const lines = [`curl -sS -i -X ${request.method} ${url}`];
  if (request.caller === 'garbage') {
    const header = tokens.authorization(request);
    if (header !== null) lines.push(`-H ${quoted(`Authorization: ${header}`)}`);
  } else if (request.caller !== 'anonymous') lines.push(`-H "Authorization: Bearer $TOKEN_${request.caller}"`);
  const prelude: string[] = [];
  const body = request.body;
  if (body?.kind === 'json') {
    lines.push(`-H 'content-type: application/json'`, `--data-binary ${quoted(JSON.stringify(body.value))}`);
  } else if (body?.kind === 'raw') {
    if (body.contentType !== null) lines.push(`-H ${shellQuote(`content-type: ${body.contentType}`)}`);
    else lines.push(`-H 'content-type:'`);
    lines.push(`--data-binary ${shellQuote(body.bytes)}`);
  } else if (body?.kind === 'multipart') {
    body.parts.forEach((part, index) => {
      if ('file' in part) {
        const file = `fuzz-part-${index}.bin`;
        prelude.push(`echo ${part.file.toString('base64')} | base64 -d > ${file}   # ${part.label}`);
        lines.push(`-F ${shellQuote(`${part.name}=@${file};filename=${part.filename};type=${part.contentType}`)}`);
      } else lines.push(`--form-string ${quoted(`${part.name}=${part.value}`)}`);
    });
  }
  return [...prelude, lines.join(' \\\n  ')].join('\n');
}

/** For reading, not running: long repetitions shortened to `unit×count`. */
export function abbreviate(text: string): string {
  return text.replace(REPEATED, (run, unit: string) => `${unit}×${run.length / unit.length}`);
}
