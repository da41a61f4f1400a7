/** KurrentDB 25.1 is the first release that appends to several streams in one transaction. */
export const MULTI_STREAM_APPEND_SINCE = { major: 25, minor: 1 } as const;

export interface ServerVersion {
  major: number;
  minor: number;
}

/**
 * Reads the version a server reports ("25.1.0", "24.10.0-rc.1"); null for
 * anything else, such as the "unknown" a server too old to say is given.
 */
export function parseServerVersion(reported: string): ServerVersion | null {
  const match = /^\s*v?(\d+)\.(\d+)(?:[.\-+\s]|$)/.exec(reported);
  return match ? { major: Number(match[1]), minor: Number(match[2]) } : null;
}

/** Why the server at EVENTSTORE_URL cannot back this service, or null when it can. */
export function multiStreamAppendProblem(reported: string): string | null {
  const required = `multi-stream appends need KurrentDB ${MULTI_STREAM_APPEND_SINCE.major}.${MULTI_STREAM_APPEND_SINCE.minor} or later`;
  const version = parseServerVersion(reported);
  if (!version) return `points at a KurrentDB/EventStoreDB server that reports no usable version ("${reported}"); ${required}`;
  const { major, minor } = MULTI_STREAM_APPEND_SINCE;
  if (version.major > major || (version.major === major && version.minor >= minor)) return null;
  return `points at KurrentDB/EventStoreDB ${version.major}.${version.minor}; ${required}`;
}
