import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';

/** Deeper bodies are refused before validation, whose recursion they would exhaust. */
export const MAX_JSON_DEPTH = 32;

class BadJsonBody extends Error {
  readonly statusCode = 400;
}

/**
 * Parses JSON bodies like Fastify's default (prototype-poisoning keys refused),
 * and additionally refuses absurd nesting with a 400.
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.length === 0) return done(null, undefined);
    if (nestingDepth(text) > MAX_JSON_DEPTH)
      return done(new BadJsonBody(`Request body is nested deeper than ${MAX_JSON_DEPTH} levels`));
    // PostgreSQL text cannot hold U+0000.
    if (text.includes('\\u0000')) return done(new BadJsonBody('Request body must not contain NUL (\\u0000) characters'));
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      done(new BadJsonBody('Request body is not valid JSON'));
    }
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
