const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids from paths and payloads are checked before they reach a uuid column, where a malformed one would be a 500. */
export const isUuid = (value: string): boolean => UUID.test(value);
