import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** An OpenAPI 3.0 schema object, loosely typed: the suite reads whatever the document says. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Schema = Record<string, any>;

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, RawOperation>>;
  components?: { schemas?: Record<string, Schema> };
}

interface RawOperation {
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
  security?: unknown[];
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Schema | undefined;
}

export interface Operation {
  /** `GET /v1/search`: how failures name the operation. */
  id: string;
  method: string;
  path: string;
  operationId: string | undefined;
  parameters: Parameter[];
  body: { contentType: string; schema: Schema | undefined; required: boolean } | undefined;
  /** Declared statuses, with the JSON schema of each (undefined when the status has no body schema). */
  responses: Map<number, Schema | undefined>;
  /** Statuses whose body is a file (a non-JSON media type with a `binary` schema): bytes, not JSON to validate. */
  fileResponses: Set<number>;
  /** The document says a bearer token is expected. */
  bearer: boolean;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const raw = item[method];
      if (!raw) continue;
      const contentTypes = Object.entries(raw.requestBody?.content ?? {});
      const [contentType, media] = contentTypes.find(([type]) => type === 'application/json') ?? contentTypes[0] ?? [];
      operations.push({
        id: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        operationId: raw.operationId,
        parameters: (raw.parameters ?? []).map((p) => ({
          name: p.name,
          in: p.in as Parameter['in'],
          required: p.required ?? p.in === 'path',
          schema: p.schema,
        })),
        body: contentType ? { contentType, schema: media?.schema, required: raw.requestBody?.required ?? false } : undefined,
        responses: new Map(
          Object.entries(raw.responses ?? {})
            .filter(([status]) => /^\d{3}$/.test(status))
            .map(([status, response]) => [Number(status), response.content?.['application/json']?.schema]),
        ),
        fileResponses: new Set(
          Object.entries(raw.responses ?? {})
            .filter(([status, response]) => /^\d{3}$/.test(status) && declaresFile(response.content))
            .map(([status]) => Number(status)),
        ),
        bearer: (raw.security ?? []).some((s) => typeof s === 'object' && s !== null && 'bearer' in s),
      });
    }
  }
  return operations;
}

/** A body declared only as a file download: no JSON, and every media type a `binary` string. */
function declaresFile(content: Record<string, { schema?: Schema }> | undefined): boolean {
  const media = Object.entries(content ?? {});
  return (
    media.length > 0 &&
    media.every(([type, { schema }]) => type !== 'application/json' && schema?.type === 'string' && schema.format === 'binary')
  );
}

/** Resolves `#/components/schemas/X` references and the `allOf: [ref]` wrappers @nestjs/swagger emits. */
export class SchemaResolver {
  constructor(private readonly document: OpenApiDocument) {}

  resolve(schema: Schema | undefined): Schema {
    let current = schema ?? {};
    for (let hops = 0; hops < 20; hops++) {
      if (typeof current.$ref === 'string') {
        const name = current.$ref.replace('#/components/schemas/', '');
        const target = this.document.components?.schemas?.[name];
        if (!target) throw new Error(`unresolvable $ref ${current.$ref}`);
        const { $ref: _ref, ...siblings } = current;
        current = { ...target, ...siblings };
      } else if (Array.isArray(current.allOf) && current.allOf.length === 1 && !current.properties) {
        const { allOf, ...rest } = current;
        current = { ...this.resolve(allOf[0]), ...rest, type: rest.type ?? undefined };
        if (current.type === undefined) delete current.type;
      } else return current;
    }
    throw new Error('reference cycle');
  }

  /** Fields of a value its schema does not name (paths like `/listing/extra`): drift, not an error. */
  undeclaredFields(schemaIn: Schema | undefined, value: unknown, path = ''): string[] {
    if (value === null || typeof value !== 'object') return [];
    const schema = this.resolve(schemaIn);
    if (Array.isArray(value))
      return schema.items ? value.flatMap((item) => this.undeclaredFields(schema.items, item, `${path}/*`)) : [];
    if (!schema.properties) return [];
    return Object.entries(value).flatMap(([key, inner]) =>
      key in schema.properties ? this.undeclaredFields(schema.properties[key], inner, `${path}/${key}`) : [`${path}/${key}`],
    );
  }

  /** The component name behind a body schema, when it is a reference. */
  componentName(schema: Schema | undefined): string | undefined {
    return typeof schema?.$ref === 'string' ? schema.$ref.replace('#/components/schemas/', '') : undefined;
  }
}

const DOCUMENT_ID = 'openapi.json';

/** Compiles the document's response schemas for ajv: OpenAPI 3.0 `nullable` becomes a JSON Schema `null` branch. */
export class ResponseValidator {
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: OpenApiDocument) {
    this.ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(this.ajv);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: toJsonSchema(document.components ?? {}) }, DOCUMENT_ID);
  }

  /** Undefined when the body matches; otherwise ajv's errors, one a line. */
  check(schema: Schema, body: unknown): string | undefined {
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(toJsonSchema(schema) as object);
      this.compiled.set(key, validate);
    }
    if (validate(body)) return undefined;
    return (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message}`).join('\n');
  }
}

/** Keywords whose value maps names to schemas: the names are data, not keywords. */
const SCHEMA_MAPS = new Set(['properties', 'schemas', 'patternProperties']);

function toJsonSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toJsonSchema);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'nullable' || key === 'example') continue;
    if (SCHEMA_MAPS.has(key) && typeof inner === 'object' && inner !== null) {
      out[key] = Object.fromEntries(Object.entries(inner).map(([name, schema]) => [name, toJsonSchema(schema)]));
    } else if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/')) out[key] = `${DOCUMENT_ID}${inner}`;
    else out[key] = toJsonSchema(inner);
  }
  if ((value as Schema).nullable === true) {
    // `enum` without null would refuse null even inside the branch, so null gets its own branch.
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}
