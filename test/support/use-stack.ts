import { afterAll, beforeAll } from 'vitest';
import { startPipelineStack, type PipelineStack } from './pipeline-stack.js';

/**
 * The pipeline stack for the test file that calls this at its top: started in a beforeAll (after the hooks
 * registered before this call, so `env` may be a function reading what they set up) and stopped in an afterAll.
 * The answer stands for the stack from then on; reading it before the stack has started throws.
 */
export function useStack(env: Record<string, string> | (() => Record<string, string>) = {}): PipelineStack {
  let stack: PipelineStack | undefined;
  beforeAll(async () => {
    stack = await startPipelineStack(typeof env === 'function' ? env() : env);
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  }, 60_000);
  return new Proxy({} as PipelineStack, {
    get(_, name) {
      if (!stack) throw new Error(`the pipeline stack is not started yet (read stack.${String(name)} in a test or a later hook)`);
      return Reflect.get(stack, name);
    },
  });
}
