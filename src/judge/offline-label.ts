/**
 * What the offline judge calls itself and its rules: a module of its own, so
 * that a scored file's records are read without loading the judge.
 */

/** The label the offline judge puts on everything it produces. */
export const OFFLINE_LABEL = "offline (approximate)";

/**
 * The version of the offline judge's rules, recorded with each score it
 * gives. Bump it with any change that moves a verdict or a statement
 * (test/offline-rules-version.test.ts holds the bundled sample's
 * fingerprint at each version and fails until it is bumped).
 */
export const OFFLINE_RULES_VERSION = "offline-rules-2026-12-05b";
