import * as semver from 'semver';
import { escapeControlChars, hasControlChars } from './control-chars';

export const PACKAGE_TYPES = ['skill', 'rule', 'bundle', 'template', 'mcp'] as const;
export const AGENT_TARGETS = ['cursor', 'claude-code', 'codex', 'gemini-cli', 'windsurf', 'generic'] as const;
export type PackageType = (typeof PACKAGE_TYPES)[number];
export type AgentTarget = (typeof AGENT_TARGETS)[number];

/** The vendor's `manifest.json`, validated and normalised. */
export interface PackageManifest {
  slug: string;
  version: string;
  type: PackageType;
  title: string;
  description: string;
  targets: AgentTarget[];
  tags: string[];
  tools: string[];
}

export type ManifestParseResult = { manifest: PackageManifest } | { problems: string[] };

const SLUG = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const TAG = /^[a-z0-9-]{1,32}$/;
const TOOL = /^[A-Za-z0-9_.-]{1,64}$/;
const MAX_TAGS = 10;
const MAX_TOOLS = 100;
const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  'slug',
  'version',
  'type',
  'title',
  'description',
  'targets',
  'tags',
  'tools',
]);
/** How many control-character problems in unknown fields to report before summing up the rest. */
const MAX_CONTROL_CHAR_PROBLEMS = 10;
const NO_CONTROL_CHARS = 'must not contain control characters';

/** Validates every field and reports all problems at once, so a vendor can fix them in one go. */
export function parseManifest(raw: unknown): ManifestParseResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { problems: ['manifest.json: must be a JSON object'] };
  }
  const input = raw as Record<string, unknown>;
  const problems: string[] = [];
  const problem = (field: string, text: string) => problems.push(`manifest.json: "${field}" ${text}`);
  const has = (field: string) => Object.prototype.hasOwnProperty.call(input, field) && input[field] !== undefined;

  const slug = requiredString(input, 'slug', problem);
  if (slug !== null && hasControlChars(slug)) problem('slug', `${NO_CONTROL_CHARS}${got(slug)}`);
  else if (slug !== null && (slug.length < 2 || slug.length > 64 || !SLUG.test(slug))) {
    problem(
      'slug',
      `must be 2-64 characters of lowercase letters, digits and hyphens, starting and ending with a letter or digit${got(slug)}`,
    );
  }

  const rawVersion = requiredString(input, 'version', problem);
  const version = rawVersion === null ? null : semver.valid(rawVersion, { loose: false });
  if (rawVersion !== null && version === null) problem('version', `must be a semantic version such as 1.2.0${got(rawVersion)}`);

  const type = requiredString(input, 'type', problem);
  if (type !== null && !(PACKAGE_TYPES as readonly string[]).includes(type)) {
    problem('type', `must be one of ${PACKAGE_TYPES.join(', ')}${got(type)}`);
  }

  const rawTitle = requiredString(input, 'title', problem);
  const title = rawTitle?.trim() ?? null;
  if (title !== null && (title.length < 1 || title.length > 120)) problem('title', 'must be 1-120 characters');
  else if (title !== null && hasControlChars(title)) problem('title', `${NO_CONTROL_CHARS}${got(title)}`);

  const rawDescription = requiredString(input, 'description', problem);
  const description = rawDescription?.trim() ?? null;
  if (description !== null && (description.length < 1 || description.length > 1024)) {
    problem('description', 'must be 1-1024 characters');
  } else if (description !== null && hasControlChars(description, { allowLineBreaks: true })) {
    problem('description', `${NO_CONTROL_CHARS} other than tabs and line breaks${got(description)}`);
  }

  const targets: AgentTarget[] = [];
  if (!has('targets')) problem('targets', 'is required');
  else if (!Array.isArray(input.targets)) problem('targets', 'must be an array');
  else if (input.targets.length === 0) problem('targets', `must list at least one of ${AGENT_TARGETS.join(', ')}`);
  else {
    input.targets.forEach((target: unknown, i) => {
      if (typeof target !== 'string' || !(AGENT_TARGETS as readonly string[]).includes(target)) {
        problem(`targets[${i}]`, `must be one of ${AGENT_TARGETS.join(', ')}${got(target)}`);
      } else if (targets.includes(target as AgentTarget)) {
        problem(`targets[${i}]`, `repeats "${target}"`);
      } else {
        targets.push(target as AgentTarget);
      }
    });
  }

  // Tags are optional; absent means none.
  const tags: string[] = [];
  if (has('tags')) {
    if (!Array.isArray(input.tags)) problem('tags', 'must be an array');
    else {
      if (input.tags.length > MAX_TAGS) problem('tags', `must have at most ${MAX_TAGS} entries`);
      input.tags.forEach((tag: unknown, i) => {
        const normal = typeof tag === 'string' ? tag.trim().toLowerCase() : null;
        if (typeof tag === 'string' && hasControlChars(tag)) {
          problem(`tags[${i}]`, `${NO_CONTROL_CHARS}${got(tag)}`);
        } else if (normal === null || !TAG.test(normal)) {
          problem(`tags[${i}]`, `must be 1-32 characters of letters, digits and hyphens${got(tag)}`);
        } else if (!tags.includes(normal)) {
          tags.push(normal);
        }
      });
    }
  }

  const tools: string[] = [];
  if (has('tools')) {
    if (!Array.isArray(input.tools)) problem('tools', 'must be an array');
    else {
      if (input.tools.length > MAX_TOOLS) problem('tools', `must have at most ${MAX_TOOLS} entries`);
      input.tools.forEach((tool: unknown, i) => {
        if (typeof tool === 'string' && hasControlChars(tool)) {
          problem(`tools[${i}]`, `${NO_CONTROL_CHARS}${got(tool)}`);
        } else if (typeof tool !== 'string' || !TOOL.test(tool)) {
          problem(`tools[${i}]`, `must be 1-64 characters of letters, digits, "_", "." and "-"${got(tool)}`);
        } else if (!tools.includes(tool)) {
          tools.push(tool);
        }
      });
    }
  }

  // Unknown fields are not kept, but a manifest is refused whole when any of its text could not be stored.
  problems.push(...unknownFieldProblems(input));

  if (problems.length > 0) return { problems };
  return {
    manifest: {
      slug: slug!,
      version: version!,
      type: type as PackageType,
      title: title!,
      description: description!,
      targets,
      tags,
      tools,
    },
  };
}

/**
 * Reports strings and keys holding NUL or other control characters (tab and
 * line breaks aside) anywhere in the fields this parser doesn't know, in
 * breadth-first order. Iterative, so deeply nested JSON can't overflow the stack.
 */
function unknownFieldProblems(input: Record<string, unknown>): string[] {
  const problems: string[] = [];
  let found = 0;
  const report = (field: string, text: string) => {
    const shown = field.length > 100 ? `${field.slice(0, 99)}…` : field;
    if (++found <= MAX_CONTROL_CHAR_PROBLEMS) problems.push(`manifest.json: "${shown}" ${text}`);
  };
  const pending: { path: string; value: unknown }[] = [];
  const visit = (path: string, key: string, value: unknown) => {
    if (hasControlChars(key, { allowLineBreaks: true })) report(path, `${NO_CONTROL_CHARS} in its name`);
    pending.push({ path, value });
  };
  for (const [key, value] of Object.entries(input)) {
    if (!KNOWN_FIELDS.has(key)) visit(escapeControlChars(key), key, value);
  }
  for (let next = 0; next < pending.length; next++) {
    const { path, value } = pending[next];
    if (typeof value === 'string') {
      if (hasControlChars(value, { allowLineBreaks: true })) report(path, `${NO_CONTROL_CHARS} other than tabs and line breaks`);
    } else if (Array.isArray(value)) {
      value.forEach((item: unknown, i) => pending.push({ path: `${path}[${i}]`, value: item }));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) visit(`${path}.${escapeControlChars(key)}`, key, item);
    }
  }
  if (found > MAX_CONTROL_CHAR_PROBLEMS) {
    problems.push(`manifest.json: ${found - MAX_CONTROL_CHAR_PROBLEMS} more fields contain control characters`);
  }
  return problems;
}

function requiredString(
  input: Record<string, unknown>,
  field: string,
  problem: (field: string, text: string) => void,
): string | null {
  const value = input[field];
  if (value === undefined || value === null) {
    problem(field, 'is required');
    return null;
  }
  if (typeof value !== 'string') {
    problem(field, 'must be a string');
    return null;
  }
  return value;
}

/** A short echo of the offending value; JSON-quoted so control characters can't leak into messages. */
function got(value: unknown): string {
  let text: string;
  try {
    // JSON escapes C0 controls but not DEL.
    text = (JSON.stringify(value) ?? String(value)).replace(/\x7f/g, '\\u007f');
  } catch {
    text = String(value);
  }
  return ` (got ${text.length > 40 ? `${text.slice(0, 40)}…` : text})`;
}
