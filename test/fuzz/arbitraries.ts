import fc from 'fast-check';
import { Operation, Schema, SchemaResolver } from './openapi-document';
import { Body, CallerKey, Encoded, FuzzRequest, MultipartPart, Mutation } from './requests';

/** Real things for generated requests to point at, so some of them get past "not found". */
export interface Seeds {
  /** Path parameter values of real resources; `near` is the path segment before the parameter (`listings`). */
  path: { values: Record<string, string>; near?: string; owner?: CallerKey }[];
  /** Real values for body fields, by field name (a pending device's userCode ...). */
  fields: Record<string, unknown[]>;
  /** Whole valid bodies, by component schema name (a public key with its fingerprint ...). */
  bodies: Record<string, unknown[]>;
  /** Cursors from real responses, with the query that produced them. */
  cursors: { path: string; query: [string, string][]; cursor: string }[];
  /** A valid release archive for a file field. */
  archive(slug: string, version: string, manifestPatch?: Record<string, unknown>): Buffer;
}

export interface OperationHints {
  /** Callers likely to be allowed in (the route's scope); the others are tried less often. */
  callers: CallerKey[];
}

// What the mutations are made of: each a list, shrinking towards its first entry.
const LONE_SURROGATES = ['\ud800x', 'x\udfff', '\udbff', 'ok\ud83d', '\udc00\ud800'];
const CONTROL_CHARACTERS = [
  'a\u0001b',
  '\u001b[31mred\u001b[0m',
  '\u001b]0;title\u0007',
  'x\u0085y',
  '\u009b2J',
  '\u0080\u009f',
  '\u007f',
  'a\r\nX-Injected: 1',
  '\t\u000b\u000c',
  'nul\u0000',
];
const ODD_UNICODE = [
  '\ufeffbom',
  '\u202eevil',
  '\uffff',
  '\ufffe',
  'e\u0301',
  '\u{1f4a5}',
  '\u200b',
  'İı',
  '\u{1d54a}\u{1d567}',
  '\u2028\u2029',
];
const SPECIAL_TEXT = [
  "' OR 1=1 --",
  '%s%n%x',
  '${jndi:x}',
  '../../etc/passwd',
  '<script>x</script>',
  '\\',
  '"',
  '{{7*7}}',
  '%',
  '_',
  'null',
  'NaN',
  '-1',
  ' ',
];
const LONG_TEXT = ['a'.repeat(100_000), '\u00e9'.repeat(60_000), '\u{1f600}'.repeat(30_000)];
const BOUNDARY_NUMBERS = [
  -1,
  0,
  -0,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 63,
  1e21,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
];
const FLOATS = [1.5, 0.5, 99.99, 1e-7, 4.000000001, -0.1];
/** The mutations that keep a string a string: validation lets them through, so they reach storage and logs. */
const TEXT_KINDS = ['lone-surrogate', 'control-characters', 'odd-unicode', 'special-text'];
const WRONG_TYPES: unknown[] = [0, 1, true, false, '', '1', 'true', [], {}, [1], { a: 1 }];
const UNKNOWN_FIELDS = ['unknownField', 'constructor', 'isAdmin', 'id', 'userId', 'vendorId'];
const UNKNOWN_QUERY = ['page', 'per_page', 'offset', 'limit', 'sort', 'window', 'status', 'type', 'state', 'code', 'zzz'];
const QUERY_NUMBERS = [
  '-1',
  '0',
  '1',
  '50',
  '51',
  '500',
  '501',
  '1e3',
  '1.5',
  'NaN',
  'Infinity',
  '99999999999999999999',
  '0x10',
  ' 1',
  '',
];
/** Bytes no UTF-8 decoder accepts, and broken escapes: sent as they are. */
const RAW_BYTES = ['%FF', '%ED%A0%80', '%C0%AF', '%', '%zz', '%E2%82', '%F4%90%80%80'];
/** What a forged cursor may carry in place of one of its fields. */
const FORGED_CURSOR_FIELDS: unknown[] = [
  Number.MAX_VALUE,
  -1,
  2 ** 53,
  1.5,
  '1',
  '0',
  '2020-02-30T25:61:00Z',
  '+275760-09-13T00:00:00.000Z',
  '-271821-04-20T00:00:00.000Z',
  'May 1, 99999',
  '\ud800',
  '',
  null,
  [],
  {},
  '00000000-0000-0000-0000-000000000000',
];
const GARBAGE_AUTHORIZATION = [
  'Bearer svc_0000000000000000000000000000000',
  'Bearer svc_',
  'Bearer not-a-token',
  'Bearer ',
  'Basic dXNlcjpwYXNz',
  'bearer svc_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz',
  `Bearer svc_${'x'.repeat(8_000)}`,
  'Bearer svc_a b',
];

interface Mutated<T> {
  value: T;
  mutation: Mutation;
}

const mutated =
  <T>(where: string, kind: string, target?: string) =>
  (value: T): Mutated<T> => ({
    value,
    mutation: { where, kind, target },
  });

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
const schemaJsonType = (schema: Schema) => (schema.type === 'integer' ? 'number' : schema.type);

export class RequestArbitraries {
  constructor(
    private readonly resolver: SchemaResolver,
    private readonly seeds: Seeds,
  ) {}

  /** Valid requests and requests with one thing wrong, in proportions that reach every layer. */
  forOperation(op: Operation, hints: OperationHints): fc.Arbitrary<FuzzRequest> {
    const pathParams = op.parameters.filter((p) => p.in === 'path');
    const queryParams = op.parameters.filter((p) => p.in === 'query');
    const callers = fc.oneof(
      { weight: 9, arbitrary: fc.constantFrom(...hints.callers) },
      { weight: 1, arbitrary: fc.constantFrom<CallerKey>('read', 'purchase', 'download', 'sell', 'all') },
    );
    const validPath = this.validPath(op);
    const validQuery = this.validQuery(op);
    const validBody = this.validBody(op);
    const none: Mutation[] = [];

    const build = (parts: {
      path?: fc.Arbitrary<Mutated<Record<string, string | Encoded>>>;
      query?: fc.Arbitrary<Mutated<[string, string | Encoded][]>>;
      body?: fc.Arbitrary<Mutated<Body | undefined>>;
      auth?: fc.Arbitrary<Mutated<{ caller: CallerKey; header?: string | null }>>;
    }) =>
      fc
        .record({
          caller:
            parts.auth ??
            callers.map((caller) => ({
              value: { caller } as { caller: CallerKey; header?: string | null },
              mutation: undefined,
            })),
          path:
            parts.path ??
            validPath.map(({ values, owner }) => ({
              value: values as Record<string, string | Encoded>,
              owner,
              mutation: undefined,
            })),
          query: parts.query ?? validQuery.map((value) => ({ value, mutation: undefined })),
          body: parts.body ?? validBody.map((value) => ({ value, mutation: undefined })),
          // A seeded resource is mostly asked for by its owner, or "not found" would hide everything behind it.
          byOwner: fc.boolean(),
        })
        .map(({ caller, path, query, body, byOwner }): FuzzRequest => {
          const mutations = [caller.mutation, path.mutation, query.mutation, body.mutation].filter((m): m is Mutation => !!m);
          const owner = 'owner' in path ? path.owner : undefined;
          return {
            method: op.method,
            path: op.path,
            pathParams: path.value,
            query: query.value,
            caller: owner && byOwner && !parts.auth ? owner : caller.value.caller,
            garbageAuthorization: caller.value.header,
            body: body.value,
            mutations: mutations.length ? mutations : none,
          };
        });

    const variants: fc.WeightedArbitrary<FuzzRequest>[] = [{ weight: 4, arbitrary: build({}) }];
    if (pathParams.length) variants.push({ weight: 2, arbitrary: build({ path: this.mutatedPath(op) }) });
    variants.push({ weight: queryParams.length ? 2 : 1, arbitrary: build({ query: this.mutatedQuery(op) }) });
    if (op.body) variants.push({ weight: 5, arbitrary: build({ body: this.mutatedBody(op) }) });
    else if (op.method !== 'GET') variants.push({ weight: 1, arbitrary: build({ body: this.mutatedBody(op) }) });
    const cursors = this.seeds.cursors.filter((c) => c.path === op.path);
    if (cursors.length && queryParams.some((p) => p.name === 'cursor'))
      variants.push({ weight: 3, arbitrary: build({ query: this.tamperedCursor(cursors) }) });
    variants.push({ weight: 1, arbitrary: build({ auth: this.badAuth() }) });
    return fc.oneof(...variants);
  }

  // ---- values from schemas -------------------------------------------------------------

  /** Values the schema allows; strings lean on plain words so more requests get past validation. */
  valid(schemaIn: Schema | undefined, fieldName?: string, depth = 0): fc.Arbitrary<unknown> {
    const schema = this.resolver.resolve(schemaIn);
    const seeded = fieldName ? this.seeds.fields[fieldName] : undefined;
    const generated = this.validUnseeded(schema, depth);
    const withNull = schema.nullable
      ? fc.oneof({ weight: 5, arbitrary: generated }, { weight: 1, arbitrary: fc.constant(null) })
      : generated;
    return seeded?.length ? fc.oneof(fc.constantFrom(...seeded), withNull) : withNull;
  }

  private validUnseeded(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    if (Array.isArray(schema.enum) && schema.enum.length) return fc.constantFrom(...schema.enum);
    switch (schema.type) {
      case 'string':
        return this.validString(schema);
      case 'integer':
        return fc.integer({
          min: Math.ceil(schema.minimum ?? -1000),
          max: Math.floor(Math.min(schema.maximum ?? 100_000, 2 ** 31 - 1)),
        });
      case 'number':
        // Many `number` fields are integers behind the scenes (cents): whole numbers pass more often.
        return fc.integer({
          min: Math.ceil(schema.minimum ?? -1000),
          max: Math.floor(Math.min(schema.maximum ?? 100_000, 2 ** 31 - 1)),
        });
      case 'boolean':
        return fc.boolean();
      case 'array': {
        const items = this.valid(schema.items, undefined, depth + 1);
        const constraints = {
          minLength: schema.minItems ?? 0,
          maxLength: Math.min(schema.maxItems ?? 4, Math.max(schema.minItems ?? 0, 4)),
        };
        return schema.uniqueItems
          ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) })
          : fc.array(items, constraints);
      }
      case 'object':
      default:
        if (schema.properties && depth < 4) return this.validObject(schema, depth);
        if (schema.type === 'object' || schema.additionalProperties)
          return fc.dictionary(
            fc.constantFrom('name', 'version', 'tools', 'x'),
            fc.oneof(fc.string(), fc.integer(), fc.boolean()),
            { maxKeys: 3 },
          );
        return fc.oneof(fc.string(), fc.integer(), fc.boolean());
    }
  }

  private validString(schema: Schema): fc.Arbitrary<string> {
    const min = schema.minLength ?? 0;
    const max = Math.min(schema.maxLength ?? 40, 40);
    switch (schema.format) {
      case 'uuid':
        return fc.uuid();
      case 'uri':
        return fc.constantFrom('https://example.com/', 'https://example.org/avatar.png', 'http://fuzz.example.com/a?b=c');
      case 'date-time':
        return fc
          .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString());
      case 'email':
        return fc.emailAddress();
    }
    if (typeof schema.pattern === 'string') {
      return fc
        .stringMatching(new RegExp(schema.pattern))
        .filter((s) => s.length >= min && s.length <= (schema.maxLength ?? Infinity));
    }
    const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,30}[a-z0-9]$/);
    const text = fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.max(min, max) });
    return fc
      .oneof({ weight: 3, arbitrary: word }, { weight: 1, arbitrary: text })
      .filter((s) => s.length >= min && s.length <= (schema.maxLength ?? Infinity));
  }

  private validObject(schema: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
    const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
    const record = Object.fromEntries(properties.map(([name, property]) => [name, this.valid(property, name, depth + 1)]));
    const required: string[] = (schema.required ?? []).filter((k: string) => k in record);
    const optional = Object.keys(record).filter((k) => !required.includes(k));
    // Mostly one or two optional fields: every extra field is another chance for the whole body to be refused.
    const chosen = fc.oneof(
      { weight: 3, arbitrary: fc.subarray(optional, { maxLength: Math.min(2, optional.length) }) },
      { weight: 1, arbitrary: fc.subarray(optional) },
    );
    return fc
      .tuple(fc.record(record), chosen)
      .map(([values, keys]) =>
        Object.fromEntries(Object.entries(values).filter(([k]) => required.includes(k) || keys.includes(k))),
      );
  }

  // ---- mutations ---------------------------------------------------------------------

  /** One value the schema does not allow (or that stresses what it allows), labelled with what it is. */
  wrongValue(schemaIn: Schema | undefined, where: string, target: string): fc.Arbitrary<Mutated<unknown>> {
    const schema = this.resolver.resolve(schemaIn);
    const type = schemaJsonType(schema);
    const options: fc.WeightedArbitrary<Mutated<unknown>>[] = [
      { weight: 3, arbitrary: fc.constant(null).map(mutated(where, 'null', target)) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(...WRONG_TYPES.filter((v) => typeOf(v) !== type)).map(mutated(where, 'wrong-type', target)),
      },
      ...this.wrongStrings(schema).map(([kind, values, weight]) => ({
        weight,
        arbitrary: fc.constantFrom<unknown>(...values).map(mutated(where, kind, target)),
      })),
    ];
    if (type === 'number') {
      const edges = [schema.minimum, schema.maximum]
        .filter((n) => typeof n === 'number')
        .flatMap((n: number) => [n - 1, n + 1, n + 0.5]);
      options.push({
        weight: 4,
        arbitrary: fc.constantFrom(...edges, ...BOUNDARY_NUMBERS).map(mutated(where, 'boundary-number', target)),
      });
      options.push({ weight: 3, arbitrary: fc.constantFrom(...FLOATS).map(mutated(where, 'float', target)) });
    }
    if (type === 'array') {
      options.push({
        weight: 2,
        arbitrary: fc
          .constantFrom<unknown>(Array(10_000).fill('a'), [null], [[]], [{}], [1, 1], Array(11).fill('x'))
          .map(mutated(where, 'array-shape', target)),
      });
      options.push({
        weight: 3,
        arbitrary: this.wrongValue(schema.items, where, `${target}[]`).map((m) => ({ ...m, value: [m.value] })),
      });
    }
    return fc.oneof(...options);
  }

  /** Text a string field accepts by type but that stresses what stores and prints it; [kind, values, weight]. */
  private wrongStrings(schema: Schema, inUrl = false): [string, string[], number][] {
    const long = inUrl ? ['a'.repeat(10_000), '\u00e9'.repeat(1_500)] : [...LONG_TEXT];
    if (typeof schema.maxLength === 'number') long.unshift('b'.repeat(schema.maxLength + 1));
    return [
      ['lone-surrogate', LONE_SURROGATES, 3],
      ['control-characters', CONTROL_CHARACTERS, 3],
      ['odd-unicode', ODD_UNICODE, 2],
      ['special-text', SPECIAL_TEXT, 1],
      ['long-string', long, 1],
      ['empty-string', [''], 1],
    ];
  }

  /** The same kind of hostile text in several string fields at once (shrinking keeps only the fields that matter). */
  private hostileText(names: string[]): fc.Arbitrary<{ kind: string; values: Record<string, string> }> {
    return fc.constantFrom(...this.wrongStrings({}).filter(([kind]) => TEXT_KINDS.includes(kind))).chain(([kind, values]) =>
      fc
        .record(Object.fromEntries(names.map((n) => [n, fc.option(fc.constantFrom(...values), { nil: undefined, freq: 3 })])))
        .filter((picked) => Object.values(picked).some((v) => v !== undefined))
        .map((picked) => ({
          kind,
          values: Object.fromEntries(Object.entries(picked).filter(([, v]) => v !== undefined)) as Record<string, string>,
        })),
    );
  }

  private mutatedBody(op: Operation): fc.Arbitrary<Mutated<Body | undefined>> {
    if (op.body?.contentType === 'multipart/form-data') return this.mutatedMultipart(op);
    const schema = this.resolver.resolve(op.body?.schema);
    const valid = this.validBody(op).map((body) => (body?.kind === 'json' ? (body.value as Record<string, unknown>) : {}));
    const json = (value: unknown): Body => ({ kind: 'json', value });
    const raw = (text: string | Buffer, contentType: string | null = 'application/json'): Body => ({
      kind: 'raw',
      contentType,
      bytes: typeof text === 'string' ? Buffer.from(text, 'utf8') : text,
    });
    const options: fc.WeightedArbitrary<Mutated<Body | undefined>>[] = [];
    const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
    if (properties.length) {
      // One field gets a wrong value; the rest stay valid.
      options.push({
        weight: 8,
        arbitrary: fc.oneof(
          ...properties.map(([name, property]) =>
            fc.tuple(valid, this.wrongValue(property, 'body', name)).map(([body, wrong]) => ({
              value: json({ ...body, [name]: wrong.value }),
              mutation: wrong.mutation,
            })),
          ),
        ),
      });
      const strings = properties.filter(([, p]) => this.resolver.resolve(p).type === 'string').map(([n]) => n);
      if (strings.length)
        options.push({
          weight: 4,
          arbitrary: fc.tuple(valid, this.hostileText(strings)).map(([body, { kind, values }]) => ({
            value: json({ ...body, ...values }),
            mutation: { where: 'body', kind, target: Object.keys(values).join(',') },
          })),
        });
      const required: string[] = schema.required ?? [];
      if (required.length)
        options.push({
          weight: 1,
          arbitrary: fc.tuple(valid, fc.constantFrom(...required)).map(([body, name]) => {
            const value = { ...body };
            delete value[name];
            return { value: json(value), mutation: { where: 'body', kind: 'missing-required', target: name } };
          }),
        });
      // The last of two equal keys wins in JSON.parse: a valid-looking body whose field is really null.
      options.push({
        weight: 1,
        arbitrary: fc.tuple(valid, fc.constantFrom(...properties.map(([n]) => n))).map(([body, name]) => {
          const text = JSON.stringify(body);
          return {
            value: raw(`${text.slice(0, -1)}${text.length > 2 ? ',' : ''}"${name}":null}`),
            mutation: { where: 'body', kind: 'duplicate-key-null', target: name },
          };
        }),
      });
    }
    options.push(
      {
        weight: 1,
        arbitrary: fc
          .tuple(valid, fc.constantFrom(...UNKNOWN_FIELDS), fc.constantFrom<unknown>(1, 'x', null, { a: 1 }))
          .map(([body, name, extra]) => ({
            value: json({ ...body, [name]: extra }),
            mutation: { where: 'body', kind: 'unknown-field', target: name },
          })),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom<unknown>(null, [], 'text', 42, true, {})
          .map((value) => ({ value: json(value), mutation: { where: 'body', kind: 'whole-body-type' } })),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(
            '{',
            '{"a":}',
            "{'a':1}",
            '{"a":1}garbage',
            'NaN',
            '{"a":1e999}',
            '{"__proto__":{"isAdmin":true}}',
            '{"constructor":{"prototype":{"x":1}}}',
            '['.repeat(40) + ']'.repeat(40),
            '{"a":"\\u0000"}',
            '{"a":"\\ud800"}',
          )
          .map((text) => ({ value: raw(text), mutation: { where: 'body', kind: 'malformed-json' } })),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom<[string | Buffer, string | null]>(
            [Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), 'application/json'],
            ['{"a":1}', 'text/plain'],
            ['a=1&b=2', 'application/x-www-form-urlencoded'],
            ['{"a":1}', 'application/json; charset=latin1'],
            ['{"a":1}', null],
            ['', 'application/json'],
          )
          .map(([text, type]) => ({ value: raw(text, type), mutation: { where: 'body', kind: 'wrong-encoding' } })),
      },
    );
    return fc.oneof(...options);
  }

  validBody(op: Operation): fc.Arbitrary<Body | undefined> {
    if (!op.body) return fc.constant(undefined);
    if (op.body.contentType === 'multipart/form-data')
      return this.validMultipart(op).map((parts) => ({ kind: 'multipart', parts }));
    const seeded = this.seeds.bodies[this.resolver.componentName(op.body.schema) ?? ''];
    const generated = this.valid(op.body.schema);
    const value = seeded?.length ? fc.oneof(fc.constantFrom(...seeded), generated) : generated;
    return value.map((v) => ({ kind: 'json', value: v }));
  }

  // ---- multipart: a small valid archive, then one field wrong ---------------------------

  private manifest() {
    return fc.record({
      slug: fc.stringMatching(/^[a-z][a-z0-9]{3,12}$/).map((s) => `fz-${s}`),
      version: fc.tuple(fc.nat(20), fc.nat(20), fc.nat(20)).map((v) => v.join('.')),
    });
  }

  private validMultipart(op: Operation): fc.Arbitrary<MultipartPart[]> {
    const schema = this.resolver.resolve(op.body?.schema);
    const required = new Set<string>(schema.required ?? []);
    const parts = Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(([name, property]) => {
      const part: fc.Arbitrary<MultipartPart> =
        property.format === 'binary'
          ? this.manifest().map(({ slug, version }) => ({
              name,
              file: this.seeds.archive(slug, version),
              filename: 'package.zip',
              contentType: 'application/zip',
              label: `a valid package zip (${slug} ${version})`,
            }))
          : this.valid(property, name).map((value) => ({ name, value: String(value) }));
      return required.has(name) ? part.map((p) => [p]) : fc.option(part, { nil: undefined, freq: 4 }).map((p) => (p ? [p] : []));
    });
    // Files last, as browsers and curl send them.
    return fc.tuple(...parts).map((lists) => lists.flat().sort((a, b) => Number('file' in a) - Number('file' in b)));
  }

  private mutatedMultipart(op: Operation): fc.Arbitrary<Mutated<Body | undefined>> {
    const schema = this.resolver.resolve(op.body?.schema);
    const multipart = (parts: MultipartPart[]): Body => ({ kind: 'multipart', parts });
    const valid = this.validMultipart(op);
    const fields = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
    const options: fc.Arbitrary<Mutated<Body | undefined>>[] = [];
    for (const [name, property] of fields) {
      if (property.format === 'binary') {
        options.push(
          fc
            .tuple(
              valid,
              fc.constantFrom<[string, Buffer]>(
                ['empty', Buffer.alloc(0)],
                ['not a zip', Buffer.from('definitely not a zip archive')],
                ['truncated zip', this.seeds.archive('fz-truncated', '1.0.0').subarray(0, 40)],
              ),
            )
            .map(([parts, [label, file]]) => ({
              value: multipart(parts.map((p) => (p.name === name ? { ...p, file, label } : p))),
              mutation: { where: 'multipart', kind: 'broken-file', target: name },
            })),
          fc
            .tuple(valid, this.manifest(), fc.constantFrom('title', 'description', 'tags', 'version', 'type', 'targets', 'tools'))
            .chain(([parts, manifest, field]) =>
              this.wrongValue(undefined, 'manifest', field).map((wrong) => ({
                value: multipart(
                  parts.map((p) =>
                    p.name === name
                      ? {
                          ...p,
                          file: this.seeds.archive(manifest.slug, manifest.version, { [field]: wrong.value }),
                          label: `a package zip whose manifest ${field} is ${wrong.mutation.kind}`,
                        }
                      : p,
                  ),
                ),
                mutation: wrong.mutation,
              })),
            ),
        );
      } else {
        options.push(
          fc
            .tuple(
              valid,
              fc.oneof(
                fc.constantFrom(...QUERY_NUMBERS, '100000001', '1,5', '\uff11\uff12').map((v) => ({ v, kind: 'numeric-text' })),
                ...this.wrongStrings(property).map(([kind, values]) => fc.constantFrom(...values).map((v) => ({ v, kind }))),
              ),
            )
            .map(([parts, { v, kind }]) => ({
              value: multipart([{ name, value: v }, ...parts.filter((p) => p.name !== name)]),
              mutation: { where: 'multipart', kind, target: name },
            })),
        );
      }
      options.push(
        valid.map((parts) => ({
          value: multipart(parts.filter((p) => p.name !== name)),
          mutation: { where: 'multipart', kind: 'missing-field', target: name },
        })),
      );
    }
    options.push(
      valid.map((parts) => ({
        value: multipart([{ name: 'unknownField', value: '1' }, ...parts]),
        mutation: { where: 'multipart', kind: 'unknown-field' },
      })),
      valid.map((parts) => ({
        value: multipart([...parts.filter((p) => !('file' in p)), ...parts]),
        mutation: { where: 'multipart', kind: 'duplicate-field' },
      })),
      fc.constant({ value: { kind: 'json', value: {} } as Body, mutation: { where: 'multipart', kind: 'json-instead' } }),
    );
    return fc.oneof(...options);
  }

  // ---- paths and queries --------------------------------------------------------------

  /** Mostly real resources from the seeds, otherwise ids and words that name nothing. */
  private validPath(op: Operation): fc.Arbitrary<PathChoice> {
    const names = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
    if (!names.length) return fc.constant({ values: {} });
    const segments = op.path.split('/');
    const near = (name: string) => segments[segments.indexOf(`{${name}}`) - 1];
    // Seeds naming more of the route's parameters, after the right segment, come first (fast-check shrinks toward them).
    const ranked = this.seeds.path
      .map((seed) => {
        const shared = Object.keys(seed.values).filter((k) => names.includes(k));
        const nearMatch = shared.some((k) => seed.near === near(k));
        return { seed, score: shared.length * 2 + (nearMatch ? 3 : 0) };
      })
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score);
    const best = ranked.filter((r) => r.score === ranked[0]?.score).map((r) => r.seed);
    const others = ranked.map((r) => r.seed);
    const random = fc.record(
      Object.fromEntries(names.map((n) => [n, fc.oneof(fc.uuid(), fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,20}$/))])),
    ) as fc.Arbitrary<Record<string, string>>;
    const fromSeed = (pool: Seeds['path']) =>
      fc
        .tuple(fc.constantFrom(...pool), random)
        .map(([seed, filler]): PathChoice => ({ values: { ...filler, ...pick(seed.values, names) }, owner: seed.owner }));
    const options: fc.WeightedArbitrary<PathChoice>[] = [];
    if (best.length) options.push({ weight: 6, arbitrary: fromSeed(best) });
    if (others.length > best.length) options.push({ weight: 2, arbitrary: fromSeed(others) });
    options.push({ weight: 3, arbitrary: random.map((values) => ({ values })) });
    return fc.oneof(...options);
  }

  private mutatedPath(op: Operation): fc.Arbitrary<Mutated<Record<string, string | Encoded>>> {
    const names = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
    return fc.tuple(this.validPath(op), fc.constantFrom(...names)).chain(([{ values: valid }, name]) =>
      fc
        .oneof(
          ...this.wrongStrings({}, true).map(([kind, values]) =>
            fc.constantFrom(...values).map((v) => ({ value: v as string | Encoded, kind })),
          ),
          fc
            .constantFrom(...RAW_BYTES, '%2F', '%2e%2e', '..', '%00')
            .map((encoded) => ({ value: { encoded } as string | Encoded, kind: 'raw-bytes' })),
          fc
            .constantFrom('0', '-1', '1e999', '00000000-0000-0000-0000-000000000000', 'a'.repeat(2_000))
            .map((v) => ({ value: v as string | Encoded, kind: 'odd-id' })),
        )
        .map(({ value, kind }) => ({ value: { ...valid, [name]: value }, mutation: { where: 'path', kind, target: name } })),
    );
  }

  private validQuery(op: Operation): fc.Arbitrary<[string, string | Encoded][]> {
    // A cursor is only valid as a real response handed it out: the cursor variants send those.
    const params = op.parameters.filter((p) => p.in === 'query' && p.name !== 'cursor');
    if (!params.length) return fc.constant([]);
    return fc
      .tuple(
        ...params.map((p) => {
          const value = this.valid(p.schema, p.name).map((v) => [p.name, String(v)] as [string, string]);
          return p.required ? value.map((v) => [v]) : fc.option(value, { nil: undefined, freq: 2 }).map((v) => (v ? [v] : []));
        }),
      )
      .map((lists) => lists.flat());
  }

  private mutatedQuery(op: Operation): fc.Arbitrary<Mutated<[string, string | Encoded][]>> {
    const params = op.parameters.filter((p) => p.in === 'query');
    const valid = this.validQuery(op);
    const unknownNames = UNKNOWN_QUERY.filter((n) => !params.some((p) => p.name === n));
    const options: fc.WeightedArbitrary<Mutated<[string, string | Encoded][]>>[] = [
      // Parameters the document does not declare (pagination the route may take without saying so, or nonsense).
      {
        weight: 2,
        arbitrary: fc
          .tuple(
            valid,
            fc.constantFrom(...unknownNames),
            fc.oneof(fc.constantFrom(...QUERY_NUMBERS), fc.constantFrom(...LONE_SURROGATES, ...SPECIAL_TEXT)),
          )
          .map(([query, name, value]) => ({
            value: [...query, [name, value] as [string, string]],
            mutation: { where: 'query', kind: 'undeclared-parameter', target: name },
          })),
      },
    ];
    if (params.length) {
      const names = params.map((p) => p.name);
      const withValue = (query: [string, string | Encoded][], name: string, value: string | Encoded) => [
        ...query.filter(([n]) => n !== name),
        [name, value] as [string, string | Encoded],
      ];
      options.push(
        {
          weight: 4,
          arbitrary: fc.tuple(valid, fc.constantFrom(...names)).chain(([query, name]) =>
            fc
              .oneof(
                ...this.wrongStrings(this.resolver.resolve(params.find((p) => p.name === name)?.schema), true).map(
                  ([kind, values, weight]) => ({
                    weight,
                    arbitrary: fc.constantFrom(...values).map((v) => ({ value: v as string | Encoded, kind })),
                  }),
                ),
                {
                  weight: 2,
                  arbitrary: fc
                    .constantFrom(...QUERY_NUMBERS, 'maybe', 'TRUE', 'yes')
                    .map((v) => ({ value: v as string | Encoded, kind: 'wrong-type' })),
                },
                {
                  weight: 2,
                  arbitrary: fc
                    .constantFrom(...RAW_BYTES)
                    .map((encoded) => ({ value: { encoded } as string | Encoded, kind: 'raw-bytes' })),
                },
              )
              .map(({ value, kind }) => ({
                value: withValue(query, name, value),
                mutation: { where: 'query', kind, target: name },
              })),
          ),
        },
        {
          weight: 2,
          arbitrary: fc.tuple(valid, this.hostileText(names)).map(([query, { kind, values }]) => ({
            value: Object.entries(values).reduce((q, [name, value]) => withValue(q, name, value), query),
            mutation: { where: 'query', kind, target: Object.keys(values).join(',') },
          })),
        },
        // A repeated parameter arrives as an array.
        {
          weight: 1,
          arbitrary: fc.tuple(valid, fc.constantFrom(...names)).map(([query, name]) => ({
            value: [...query, [name, 'a'] as [string, string], [name, 'b'] as [string, string]],
            mutation: { where: 'query', kind: 'repeated-parameter', target: name },
          })),
        },
      );
    }
    return fc.oneof(...options);
  }

  /** A real cursor, flipped, truncated, re-encoded with a forged field, or sent with another search. */
  private tamperedCursor(cursors: Seeds['cursors']): fc.Arbitrary<Mutated<[string, string | Encoded][]>> {
    const withCursor = (query: [string, string][], cursor: string): [string, string][] => [
      ...query.filter(([n]) => n !== 'cursor'),
      ['cursor', cursor],
    ];
    const tampered = (kind: string) => (value: [string, string][]) => ({
      value,
      mutation: { where: 'cursor', kind, target: 'cursor' },
    });
    const seed = fc.constantFrom(...cursors);
    return fc.oneof(
      seed.map((c) => tampered('unchanged')(withCursor(c.query, c.cursor))),
      fc.tuple(seed, fc.nat(), fc.constantFrom('A', '_', '-', '0', 'z')).map(([c, at, ch]) => {
        const i = at % c.cursor.length;
        const flipped = c.cursor.slice(0, i) + (c.cursor[i] === ch ? 'B' : ch) + c.cursor.slice(i + 1);
        return tampered('flipped')(withCursor(c.query, flipped));
      }),
      fc
        .tuple(seed, fc.nat())
        .map(([c, at]) => tampered('truncated')(withCursor(c.query, c.cursor.slice(0, at % c.cursor.length)))),
      fc.tuple(seed, fc.nat(), fc.constantFrom(...FORGED_CURSOR_FIELDS)).map(([c, at, leaf]) => {
        const decoded = decodeJson(c.cursor);
        if (!Array.isArray(decoded)) return tampered('re-encoded')(withCursor(c.query, c.cursor));
        const copy = [...decoded];
        copy[at % copy.length] = leaf;
        return tampered('re-encoded')(withCursor(c.query, Buffer.from(JSON.stringify(copy)).toString('base64url')));
      }),
      fc.tuple(seed, seed).map(([a, b]) => tampered('other-search')(withCursor(a.query, b.cursor))),
      seed.map((c) => tampered('standard-base64')(withCursor(c.query, Buffer.from(c.cursor, 'base64url').toString('base64')))),
    );
  }

  private badAuth(): fc.Arbitrary<Mutated<{ caller: CallerKey; header?: string | null }>> {
    return fc.oneof(
      fc.constant({ value: { caller: 'anonymous' as CallerKey }, mutation: { where: 'auth', kind: 'anonymous' } }),
      fc.constant({ value: { caller: 'revoked' as CallerKey }, mutation: { where: 'auth', kind: 'revoked-token' } }),
      fc.constantFrom(...GARBAGE_AUTHORIZATION).map((header) => ({
        value: { caller: 'garbage' as CallerKey, header },
        mutation: { where: 'auth', kind: 'garbage-token' },
      })),
    );
  }

  // ---- the sweep: every field of a request that worked, one hostile value at a time ------------

  /**
   * Random sampling reaches a given field with a given kind of value only now and then;
   * the sweep tries each pair once, on a request that was answered 2xx, so a route with
   * many fields gets the same scrutiny as one with few.
   */
  sweep(op: Operation, base: FuzzRequest): FuzzRequest[] {
    const out: FuzzRequest[] = [];
    const variant = (change: Partial<FuzzRequest>, mutation: Mutation): FuzzRequest => ({
      ...base,
      ...change,
      mutations: [mutation],
    });
    const body = base.body;
    if (body?.kind === 'json' && typeof body.value === 'object' && body.value !== null && !Array.isArray(body.value)) {
      const schema = this.resolver.resolve(op.body?.schema);
      for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
        for (const [kind, value] of this.sweepValues(this.resolver.resolve(property), false)) {
          out.push(
            variant(
              { body: { kind: 'json', value: { ...(body.value as object), [name]: value } } },
              { where: 'body', kind, target: name },
            ),
          );
        }
      }
    }
    if (body?.kind === 'multipart') {
      for (const part of body.parts) {
        if ('file' in part) continue;
        for (const [kind, value] of this.sweepValues({ type: 'string' }, false)) {
          if (typeof value !== 'string') continue;
          const parts = body.parts.map((p) => (p === part ? { name: p.name, value } : p));
          out.push(variant({ body: { kind: 'multipart', parts } }, { where: 'multipart', kind, target: part.name }));
        }
      }
    }
    for (const param of op.parameters.filter((p) => p.in === 'query')) {
      for (const [kind, value] of this.sweepValues(this.resolver.resolve(param.schema), true)) {
        const text = typeof value === 'string' ? value : String(value);
        const query = [...base.query.filter(([n]) => n !== param.name), [param.name, text] as [string, string]];
        out.push(variant({ query }, { where: 'query', kind, target: param.name }));
      }
    }
    // Each field of each real cursor, forged and re-encoded (the cursor is JSON in base64url).
    for (const cursor of this.seeds.cursors.filter((c) => c.path === op.path)) {
      const fields = decodeJson(cursor.cursor);
      if (!Array.isArray(fields)) continue;
      fields.forEach((_, index) => {
        for (const forged of FORGED_CURSOR_FIELDS) {
          const copy = [...fields];
          copy[index] = forged;
          const query: [string, string][] = [
            ...cursor.query,
            ['cursor', Buffer.from(JSON.stringify(copy)).toString('base64url')],
          ];
          out.push(variant({ query }, { where: 'cursor', kind: 're-encoded', target: `cursor[${index}]` }));
        }
      });
    }
    for (const param of op.parameters.filter((p) => p.in === 'path')) {
      for (const [kind, value] of [...this.sweepValues({ type: 'string' }, true), ['raw-bytes', { encoded: '%FF' }] as const]) {
        const replacement =
          typeof value === 'object' && value !== null && 'encoded' in value ? (value as Encoded) : String(value);
        out.push(
          variant({ pathParams: { ...base.pathParams, [param.name]: replacement } }, { where: 'path', kind, target: param.name }),
        );
      }
    }
    return out;
  }

  private sweepValues(schema: Schema, inUrl: boolean): [string, unknown][] {
    const type = schemaJsonType(schema);
    const values: [string, unknown][] = [
      ['lone-surrogate', '\ud800x'],
      ['control-characters', 'a\u0001b'],
      ['control-characters', '\u001b[31mred\u001b[0m'],
      ['control-characters', 'x\u0085y'],
      ['odd-unicode', '\u202eevil\ufeff'],
      ['empty-string', ''],
      [
        'long-string',
        inUrl ? 'a'.repeat(10_000) : typeof schema.maxLength === 'number' ? 'b'.repeat(schema.maxLength + 1) : LONG_TEXT[0],
      ],
    ];
    if (inUrl) return values.filter(([, v]) => v !== '');
    values.unshift(['null', null], ['wrong-type', type === 'string' ? 1 : 'x']);
    if (type === 'number') {
      const edges = [schema.minimum - 1, schema.maximum + 1].filter((n) => Number.isFinite(n));
      for (const n of [...edges, 2 ** 31, Number.MAX_VALUE]) values.push(['boundary-number', n]);
      values.push(['float', 1.5]);
    }
    if (type === 'array') values.push(['array-shape', [null]], ['array-shape', Array(10_000).fill('a')]);
    return values;
  }
}

/** Path values, and the caller who owns the resource they name (when a seed was used). */
interface PathChoice {
  values: Record<string, string>;
  owner?: CallerKey;
}

function pick(values: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([k]) => names.includes(k)));
}

function decodeJson(cursor: string): unknown {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}
