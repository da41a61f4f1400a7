import type { PackageManifest } from '../archive/package-manifest';

/**
 * Points per signal; they sum to 100.
 * - README: 15 for having one, +10 when it has >= 300 characters, +10 when it has a heading or a code block.
 * - description: up to 20, proportional to its length, full at 200 characters.
 * - tags: 5 each, up to 15 (3 or more tags).
 * - targets: 5 each, up to 10 (2 or more targets).
 * - signed release: 20.
 */
export const QUALITY_WEIGHTS = {
  readmePresent: 15,
  readmeSubstantial: 10,
  readmeStructured: 10,
  description: 20,
  perTag: 5,
  tags: 15,
  perTarget: 5,
  targets: 10,
  signed: 20,
} as const;

export const README_SUBSTANTIAL_CHARS = 300;
export const DESCRIPTION_FULL_CHARS = 200;

export function qualityScore(input: { manifest: PackageManifest; readmeMd: string | null; signed: boolean }): number {
  const w = QUALITY_WEIGHTS;
  let score = 0;
  const readme = input.readmeMd?.trim() ?? '';
  if (readme.length > 0) {
    score += w.readmePresent;
    if (readme.length >= README_SUBSTANTIAL_CHARS) score += w.readmeSubstantial;
    if (/^#{1,6}\s+\S/m.test(readme) || readme.includes('```')) score += w.readmeStructured;
  }
  score += Math.round(w.description * Math.min(1, input.manifest.description.trim().length / DESCRIPTION_FULL_CHARS));
  score += Math.min(w.tags, w.perTag * input.manifest.tags.length);
  score += Math.min(w.targets, w.perTarget * input.manifest.targets.length);
  if (input.signed) score += w.signed;
  return Math.max(0, Math.min(100, Math.round(score)));
}
