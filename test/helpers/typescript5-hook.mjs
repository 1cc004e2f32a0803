// openapi-typescript drives the TypeScript 5 compiler API, which TypeScript 7 (this project's
// compiler) no longer has: this resolve hook hands it the `typescript5` devDependency instead.
// Use: node --import ./test/helpers/typescript5-hook.mjs node_modules/openapi-typescript/bin/cli.js …
import { register } from 'node:module';

const hook = `
export async function resolve(specifier, context, next) {
  if (specifier === 'typescript' && context.parentURL?.includes('/openapi-typescript/')) {
    return next('typescript5', context);
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
