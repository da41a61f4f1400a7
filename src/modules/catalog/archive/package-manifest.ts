import * as semver from 'semver';

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
  if (slug !== null && (slug.length < 2 || slug.length > 64 || !SLUG.test(slug))) {
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

  const rawDescription = requiredString(input, 'description', problem);
  const description = rawDescription?.trim() ?? null;
  if (description !== null && (description.length < 1 || description.length > 1024)) {
    problem('description', 'must be 1-1024 characters');
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
        if (normal === null || !TAG.test(normal)) {
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
        if (typeof tool !== 'string' || !TOOL.test(tool)) {
          problem(`tools[${i}]`, `must be 1-64 characters of letters, digits, "_", "." and "-"${got(tool)}`);
        } else if (!tools.includes(tool)) {
          tools.push(tool);
        }
      });
    }
  }

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
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return ` (got ${text.length > 40 ? `${text.slice(0, 40)}…` : text})`;
}
