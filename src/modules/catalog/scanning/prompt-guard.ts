/**
 * A heuristic prompt-injection / jailbreak classifier. Each signal has a weight
 * (its probability of meaning injection on its own) and signals combine as a
 * noisy-OR, 1 - Π(1 - w): one strong phrase scores >= 0.8, a single weak hint
 * stays benign, and several weak hints add up.
 */
export type PromptLabel = 'benign' | 'injection';

export interface PromptGuardResult {
  label: PromptLabel;
  /** 0..1, rounded to 2 decimals. */
  score: number;
  /** Ids of the signals that fired, for findings (never the matched text). */
  signals: string[];
}

export const INJECTION_THRESHOLD = 0.5;

interface PhraseRule {
  id: string;
  weight: number;
  pattern: RegExp;
}

// Matched against normalised text: lower case, invisible characters removed,
// markdown emphasis dropped and whitespace collapsed. Bounded repeats only.
const PHRASE_RULES: PhraseRule[] = [
  {
    id: 'ignore-previous-instructions',
    weight: 0.9,
    pattern:
      /\b(?:ignore|disregard|forget|override|skip)\b(?: [\w']+){0,3} (?:previous|prior|above|earlier|preceding|former|original|initial)\b(?: [\w']+){0,2} (?:instructions?|prompts?|rules|directions|directives|guidelines|context|messages?)\b/,
  },
  {
    id: 'forget-everything',
    weight: 0.6,
    pattern: /\b(?:forget|ignore|disregard) (?:everything|all) (?:above|before|you (?:were|have been) told)\b/,
  },
  {
    id: 'disregard-system-prompt',
    weight: 0.85,
    pattern:
      /\b(?:disregard|ignore|bypass|override|forget)\b (?:the |your |any |all )?(?:system|developer|original) (?:prompt|message|instructions|rules)\b/,
  },
  {
    id: 'you-are-now-unrestricted',
    weight: 0.85,
    pattern:
      /\byou are now (?:dan\b|in (?:developer|god|jailbreak|jailbroken|dan|unrestricted) mode|(?:an? )?(?:unrestricted|unfiltered|uncensored|jailbroken)\b|free (?:from|of) (?:all |any )?(?:restrictions|rules|guidelines|limitations))/,
  },
  { id: 'do-anything-now', weight: 0.85, pattern: /\bdo anything now\b/ },
  {
    id: 'unrestricted-mode',
    weight: 0.8,
    pattern: /\b(?:enable|enter|activate|switch to|turn on)\b (?:the )?(?:god|jailbreak|dan|unrestricted|uncensored) mode\b/,
  },
  // Browser and phone docs legitimately say "enable developer mode".
  { id: 'developer-mode', weight: 0.3, pattern: /\b(?:enable|enter|activate|switch to|turn on)\b (?:the )?developer mode\b/ },
  {
    id: 'reveal-system-prompt',
    weight: 0.85,
    pattern:
      /\b(?:reveal|print|show|output|repeat|leak|disclose|display|dump|tell me)\b(?: me)? (?:your|the)(?: [\w-]+){0,2} (?:system prompt|system message|initial instructions|hidden instructions|original instructions|developer message|secret instructions)\b/,
  },
  {
    id: 'act-without-restrictions',
    weight: 0.8,
    pattern:
      /\b(?:act|behave|respond|operate|roleplay|answer) as\b.{0,60}?\bwithout (?:any )?(?:restrictions|limitations|limits|filters|rules|guidelines|censorship|ethical)/,
  },
  {
    id: 'pretend-unbound',
    weight: 0.8,
    pattern:
      /\bpretend (?:that )?you (?:have no|are not bound by|don't have|do not have) (?:any )?(?:restrictions|rules|guidelines|limitations|filters)\b/,
  },
  {
    id: 'bypass-safety',
    weight: 0.8,
    pattern:
      /\b(?:bypass|circumvent|disable|evade|ignore)\b (?:all |any |the |your )?(?:safety|content|ethical|moderation) (?:filters?|guardrails|guidelines|restrictions|safeguards|policies|protocols)\b/,
  },
  {
    id: 'no-ethical-limits',
    weight: 0.6,
    pattern: /\bwithout (?:any )?(?:ethical|moral|safety) (?:restrictions|guidelines|limits|constraints)\b/,
  },
  { id: 'jailbreak', weight: 0.25, pattern: /\bjailbr(?:eak|oken)/ },
  { id: 'exfiltrate', weight: 0.45, pattern: /\bexfiltrat(?:e|es|ed|ing|ion)\b/ },
  {
    id: 'send-secrets-away',
    weight: 0.75,
    pattern:
      /\b(?:send|post|upload|transmit|forward|leak)\b[^.]{0,60}\b(?:api keys?|secrets|credentials|tokens|passwords|environment variables|\.env|ssh keys?|private keys?)\b[^.]{0,60}?(?:https?:\/\/|webhook)/,
  },
  {
    id: 'conceal-from-user',
    weight: 0.6,
    pattern:
      /\b(?:do not|don't|never) (?:tell|inform|alert|notify) the user\b|\bwithout (?:the user|them) (?:knowing|noticing)\b/,
  },
  { id: 'system-override', weight: 0.7, pattern: /\bsystem override\b|\b(?:new|updated|real|actual) system instructions?\b/ },
  {
    id: 'instructions-for-the-ai',
    weight: 0.5,
    pattern: /\b(?:important |urgent )?(?:new )?instructions? for (?:the |any )?(?:ai|assistant|agent|llm|model)\b/,
  },
];

// Fake chat-template role markers, matched against raw lower-case text.
const ROLE_MARKERS = /<\|im_start\|>\s*system|<\|system\|>|<\|start_header_id\|>\s*system|\[system\]\s*:|<<sys>>/;

const INVISIBLE = /[\u200b\u200c\u2060\u180e\ufeff\u00ad]/g;
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;
// Unicode "tag" characters mirror ASCII invisibly ("ASCII smuggling").
const TAG_CHARACTERS = /[\u{e0000}-\u{e007f}]/gu;
const AI_DIRECTED =
  /\b(?:assistant|ai|llm|language model|model|agent|claude|gpt|chatgpt|copilot|cursor)\b|\bsystem prompt\b|\byou (?:must|should|will|are)\b|\binstructions?\b/;

export function classifyPrompt(text: string): PromptGuardResult {
  const weights = new Map<string, number>();
  const fire = (id: string, weight: number) => weights.set(id, Math.max(weights.get(id) ?? 0, weight));

  // Reveal smuggled ASCII so the phrase rules can read it too.
  let smuggled = '';
  for (const match of text.matchAll(TAG_CHARACTERS)) {
    const code = match[0].codePointAt(0)! - 0xe0000;
    if (code >= 0x20 && code < 0x7f) smuggled += String.fromCharCode(code);
  }
  if (smuggled.length > 0) fire('unicode-tag-characters', 0.9);

  // A BOM at the very start is normal; invisible characters elsewhere can split words to dodge filters.
  if ((text.startsWith('\ufeff') ? text.slice(1) : text).match(INVISIBLE)) fire('zero-width-characters', 0.3);
  if (BIDI_CONTROLS.test(text)) fire('bidi-control-characters', 0.4);
  if (ROLE_MARKERS.test(text.toLowerCase())) fire('fake-role-markers', 0.5);

  const body = normalise(`${text}\n${smuggled}`);
  for (const rule of PHRASE_RULES) if (rule.pattern.test(body)) fire(rule.id, rule.weight);

  for (const comment of htmlComments(text)) {
    const hidden = normalise(comment);
    if (PHRASE_RULES.some((rule) => rule.weight >= 0.5 && rule.pattern.test(hidden))) fire('instructions-in-html-comment', 0.6);
    else if (AI_DIRECTED.test(hidden)) fire('ai-directed-html-comment', 0.35);
  }

  let benign = 1;
  for (const weight of weights.values()) benign *= 1 - weight;
  const score = Math.round((1 - benign) * 100) / 100;
  return { label: score >= INJECTION_THRESHOLD ? 'injection' : 'benign', score, signals: [...weights.keys()] };
}

function normalise(text: string): string {
  return text
    .replace(INVISIBLE, '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[*_~`]+/g, '')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, ' ');
}

/** Bodies of `<!-- ... -->` comments; an unclosed comment runs to the end, as browsers treat it. */
function htmlComments(text: string): string[] {
  const comments: string[] = [];
  let from = 0;
  while (comments.length < 1000) {
    const start = text.indexOf('<!--', from);
    if (start < 0) break;
    const end = text.indexOf('-->', start + 4);
    comments.push(text.slice(start + 4, end < 0 ? text.length : end));
    if (end < 0) break;
    from = end + 3;
  }
  return comments;
}
