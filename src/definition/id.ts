/**
 * Calculator ids: lower-case letters, digits and dashes, as they appear in paths
 * (`/v1/calculators/bmi`) and embed snippets. The route schemas and the CLI check ids
 * against this one pattern.
 */
export const CALC_ID_PATTERN = '^[a-z0-9][a-z0-9-]{0,63}$';
