export interface SecretPattern {
  /** Names the kind of secret in findings; the matched value itself is never reported. */
  kind: string;
  pattern: RegExp;
  /** Extra test on a match, to skip documented placeholders and look-alikes. */
  accept?: (match: string) => boolean;
}

// Boundaries keep key-shaped substrings of longer identifiers from matching.
export const SECRET_PATTERNS: SecretPattern[] = [
  { kind: 'private key', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g },
  {
    kind: 'AWS access key ID',
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])/g,
    // AWS's own documentation key ends in EXAMPLE.
    accept: (match) => !match.endsWith('EXAMPLE'),
  },
  { kind: 'GitHub token', pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})/g },
  { kind: 'Stripe live key', pattern: /(?<![A-Za-z0-9_])(?:sk|rk)_live_[A-Za-z0-9]{16,}/g },
  { kind: 'Slack token', pattern: /(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}/g },
  {
    kind: 'OpenAI-style API key',
    pattern: /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{32,}/g,
    // Real keys mix digits and letters; hyphenated words like sk-learn-… don't.
    accept: (match) => /[0-9]/.test(match.slice(3)) && /[A-Za-z]/.test(match.slice(3)),
  },
  { kind: 'Google API key', pattern: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g },
];

/** The kinds of secret found in `text`, each once, in pattern order. */
export function findSecretKinds(text: string): string[] {
  const kinds: string[] = [];
  for (const { kind, pattern, accept } of SECRET_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      if (!accept || accept(match[0])) {
        kinds.push(kind);
        break;
      }
    }
  }
  return kinds;
}
