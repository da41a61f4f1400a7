import { createHash } from 'node:crypto';

/** How long the vendor has to approve on GitHub. */
export const GITHUB_STATE_TTL_MS = 10 * 60 * 1000;

/** Only the hash of an OAuth `state` is stored, so the log never holds a usable one. */
export const hashGithubState = (state: string) => createHash('sha256').update(state).digest('hex');
