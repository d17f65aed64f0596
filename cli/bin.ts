#!/usr/bin/env bun
import { runCli } from './index.ts';

await runCli(process.argv.slice(2));
