// `node --import <this file> child.mjs`: the child runs TypeScript sources (typescript-hooks.mjs).
import { register } from 'node:module';

register('./typescript-hooks.mjs', import.meta.url);
