#!/usr/bin/env node
// The `frametext` command. pnpm links a package's commands when it installs, before anything is built, and leaves out
// one whose file is not there yet; so the command is this file, which the clone has, and it runs the built CLI.
import { existsSync } from 'node:fs';

const built = new URL('../dist/main.js', import.meta.url);
if (!existsSync(built)) {
  process.stderr.write('frametext: the command is not built yet. Run `npm start` or `npm run build` first.\n');
  process.exit(1);
}
await import(built.href);
