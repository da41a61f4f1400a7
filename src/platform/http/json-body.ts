import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { findUnstorableText } from '../text/text-rules';

/** Deeper bodies are refused before validation, whose recursion they would exhaust. */
export const MAX_JSON_DEPTH = 32;

const RAW_BODY = Symbol('raw-body');

/** The bytes a JSON body was parsed from, for signatures over exactly them (payment webhooks). */
export function rawBodyOf(request: FastifyRequest): Buffer | undefined {
  return (request as unknown as { [RAW_BODY]?: Buffer })[RAW_BODY];
}

class BadJsonBody extends Error {
  readonly statusCode = 400;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses JSON bodies like Fastify's default (prototype-poisoning keys refused),
 * and additionally refuses, each with a 400 that says what is wrong: bytes
 * that are not UTF-8, absurd nesting, and text no store can keep (U+0000, lone
 * surrogates), naming the field. So no route, present or future, passes such
 * text on to a decision or the log.
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    (request as unknown as { [RAW_BODY]?: Buffer })[RAW_BODY] = bytes;
    if (bytes.length === 0) return done(null, undefined);
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      return done(new BadJsonBody('Request body is not valid UTF-8'));
    }
    if (nestingDepth(text) > MAX_JSON_DEPTH)
      return done(new BadJsonBody(`Request body is nested deeper than ${MAX_JSON_DEPTH} levels`));
    let parsed: unknown;
    try {
      parsed = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch {
      return done(new BadJsonBody('Request body is not valid JSON'));
    }
    const unstorable = findUnstorableText(parsed);
    if (unstorable) return done(new BadJsonBody(`${unstorable.path} ${unstorable.problem}`));
    done(null, parsed);
  });
}

/** Bracket depth outside strings; cheap, and runs before the parser allocates anything. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return deepest;
}
