import type { Command } from '@oclif/core';
// The plugin's package exports nothing and oclif would find these by scanning its
// lib/commands folder on disk, which a compiled executable does not have: import the
// classes by file so the bundler includes them (pinned @oclif/plugin-autocomplete).
import Autocomplete from '../node_modules/@oclif/plugin-autocomplete/lib/commands/autocomplete/index.js';
import AutocompleteCreate from '../node_modules/@oclif/plugin-autocomplete/lib/commands/autocomplete/create.js';
import AutocompleteScript from '../node_modules/@oclif/plugin-autocomplete/lib/commands/autocomplete/script.js';

/** Shell completion commands (`calc autocomplete bash|zsh`). */
export const autocompleteCommands: Record<string, Command.Class> = {
  autocomplete: Autocomplete as unknown as Command.Class,
  'autocomplete:create': AutocompleteCreate as unknown as Command.Class,
  'autocomplete:script': AutocompleteScript as unknown as Command.Class,
};
