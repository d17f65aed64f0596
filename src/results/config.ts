/**
 * A calculator's results config (docs/results.md, "Asking visitors for their result"):
 * whether the widget offers to send the result, its button, the contact fields it asks
 * for and the consent the visitor must give. Browser-safe: the dashboard and the CLI read
 * the lists; the server checks and serves the config from here.
 */
import type { Text } from '../definition/types.ts';

/** How the widget treats a contact field: the visitor must fill it, may, or never sees it. */
export const CONTACT_MODES = ['required', 'optional', 'off'] as const;

type ContactMode = (typeof CONTACT_MODES)[number];

/** The contact fields a visitor may be asked for, in the order the widget shows them. */
export const CONTACT_FIELDS = ['email', 'name'] as const;

type ContactField = (typeof CONTACT_FIELDS)[number];

export interface ResultsConfig {
  enabled: boolean;
  /** The button's text; the widget's own ("Send my result", in the visitor's language) when absent. */
  button?: Text;
  contact?: Record<ContactField, ContactMode>;
  /** The consent checkbox's text: required when any contact field is on; a consent is required whenever it is set. */
  consentText?: Text;
}

/** What the widget's load answer carries when results are on: the config minus `enabled`. */
export interface LoadResults {
  button?: Text;
  contact: Record<ContactField, ContactMode>;
  consentText?: Text;
}

const NO_CONTACT: Record<ContactField, ContactMode> = { email: 'off', name: 'off' };

/** The contact modes of a config, every field named (off when left out). */
function contactOf(config: ResultsConfig): Record<ContactField, ContactMode> {
  return { ...NO_CONTACT, ...config.contact };
}

/** Whether the config asks for any contact field. */
const asksForContact = (config: ResultsConfig): boolean =>
  CONTACT_FIELDS.some((field) => contactOf(config)[field] !== 'off');

/** A problem of a config, by field path under `config.results`: the `details` of a 400. */
export interface ConfigProblem {
  field: string;
  message: string;
}

/**
 * The rules a config's shape (checked by its schema) cannot say: a config that asks for a
 * contact field needs a consent text, so that no one's address is kept without their consent.
 */
export function configProblems(config: ResultsConfig): ConfigProblem[] {
  if (asksForContact(config) && config.consentText === undefined)
    return [
      {
        field: 'config.results.consentText',
        message: 'is required when a contact field (email or name) is required or optional',
      },
    ];
  return [];
}

/** The config in the load answer's shape; undefined when the widget offers nothing. */
export function loadResultsOf(config: ResultsConfig): LoadResults | undefined {
  if (!config.enabled) return undefined;
  const shown: LoadResults = { contact: contactOf(config) };
  if (config.button !== undefined) shown.button = config.button;
  if (config.consentText !== undefined) shown.consentText = config.consentText;
  return shown;
}
