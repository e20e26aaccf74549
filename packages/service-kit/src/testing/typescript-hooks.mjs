// Module hooks that let a child process of a test run the workspace's TypeScript sources, as the tests themselves
// do: workspace packages resolve through their "source" export, a `.js` import finds the `.ts` file beside it, and
// each `.ts` file is transpiled on load (types are stripped, not checked: the typecheck does that).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const local = (specifier) => specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('file:');

export async function resolve(specifier, context, next) {
  const withSource = { ...context, conditions: [...context.conditions, 'source'] };
  try {
    return await next(specifier, withSource);
  } catch (err) {
    if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !local(specifier) || !specifier.endsWith('.js')) throw err;
    return next(`${specifier.slice(0, -3)}.ts`, withSource);
  }
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts') || url.includes('/node_modules/')) return next(url, context);
  const fileName = fileURLToPath(url);
  const { outputText } = ts.transpileModule(await readFile(fileName, 'utf8'), {
    fileName,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true, inlineSourceMap: true },
  });
  return { format: 'module', source: outputText, shortCircuit: true };
}
