import { lookup } from 'node:dns/promises';
import type { HostResolver } from '@frametext/service-kit';

/**
 * A DNS whose answers a test writes: a scripted name answers its next list of addresses each time it is asked (the
 * last list again once they run out); every other name resolves as the system resolves it. Counts the questions.
 */
export class ScriptedDns {
  private readonly answers = new Map<string, string[][]>();
  private readonly questions = new Map<string, number>();

  script(host: string, ...answers: string[][]): void {
    this.answers.set(host, answers);
    this.questions.set(host, 0);
  }

  /** How many times `host` was asked since it was scripted. */
  asked(host: string): number {
    return this.questions.get(host) ?? 0;
  }

  readonly resolve: HostResolver = async (host) => {
    const script = this.answers.get(host);
    if (!script) return lookup(host, { all: true, verbatim: true });
    const n = this.asked(host);
    this.questions.set(host, n + 1);
    return script[Math.min(n, script.length - 1)]!.map((address) => ({ address }));
  };
}
