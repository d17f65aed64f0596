import { readFileSync } from 'node:fs';
import { CliFailure, EXIT } from '../base-command.ts';
import { readStdin } from './stdin.ts';

/** What `--file F` is, for the commands that read a definition: its JSON, `-` for standard input. */
export const definitionFile = {
  char: 'f',
  description: 'a calculator definition as JSON (docs/calculators.md); - reads standard input',
} as const;

const invalidFile = (message: string) => new CliFailure(message, EXIT.failure, 'invalid_file');

/** The parsed JSON of a definition file (not yet checked: the validator or the server does that). */
export async function readDefinitionFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = path === '-' ? await readStdin() : readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw invalidFile(
      code === 'ENOENT' ? `There is no file ${path}.` : `Cannot read ${path}: ${(error as Error).message}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidFile(`${path === '-' ? 'Standard input' : path} is not JSON: ${(error as Error).message}`);
  }
}
