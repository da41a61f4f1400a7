import * as path from 'node:path';

/**
 * Where each agent reads packages from, relative to the project directory
 * (`--dir`, default the current one). One folder per package, so removal is clean.
 */
export const TARGET_DIRECTORIES: Record<string, (slug: string) => string> = {
  'claude-code': (slug) => path.join('.claude', 'skills', slug),
  cursor: (slug) => path.join('.cursor', 'rules', slug),
  codex: (slug) => path.join('.codex', 'skills', slug),
  'gemini-cli': (slug) => path.join('.gemini', 'extensions', slug),
  windsurf: (slug) => path.join('.windsurf', 'rules', slug),
  generic: (slug) => path.join('.svc', 'packages', slug),
};

/** The asked target, else the listing's only (or first) one. */
export function chooseTarget(asked: string | undefined, listingTargets: string[]): string {
  if (asked) return asked;
  return listingTargets.find((t) => t in TARGET_DIRECTORIES) ?? 'generic';
}
