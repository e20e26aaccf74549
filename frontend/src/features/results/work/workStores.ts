import type { KeptWorkView } from '@frametext/contracts';
import { errorMessage } from '../../../lib/api';
import { BrowserWorkStale, browserKeepsWork, browserWorkKey, readBrowserWork, writeBrowserWork, type BrowserWorkScope } from '../../../lib/browserWork';
import type { AppDispatch } from '../../../lib/store';
import { resultsApi } from '../api';

/*
 * Where a view's kept work lives: the results service for a signed-in person's uploads (and their own work on the
 * demo), so it follows them to another browser; this browser's IndexedDB for local uploads and for the demo while
 * signed out. Both count revisions and refuse a save based on an old one, so the saver treats them alike.
 */

export interface LoadedWork {
  revision: number;
  document: unknown;
}

/** Why a save failed: another tab saved first, the store refused it for good (retrying cannot help), or try again. */
export type SaveFailureKind = 'stale' | 'refused' | 'retry';

export class WorkSaveError extends Error {
  constructor(
    readonly kind: SaveFailureKind,
    message: string,
  ) {
    super(message);
  }
}

export interface WorkStore {
  /** 'server' follows the person; 'browser' stays in this browser. */
  where: 'server' | 'browser';
  load(): Promise<LoadedWork>;
  /** Saves `document` as the revision after `basedOn`; answers the new revision or throws WorkSaveError. */
  save(basedOn: number, document: unknown): Promise<number>;
}

/** Browsers let a keepalive request carry at most 64 KB; larger saves are sent as ordinary ones. */
const KEEPALIVE_MAX_BYTES = 60_000;

/** What a failed HTTP call means for a save: 409 stale, other 4xx refused (but 408 and 429), the rest retried. */
function saveFailure(error: unknown): WorkSaveError {
  const status = (error as { status?: unknown } | undefined)?.status;
  const message = errorMessage(error, 'The server did not keep this work.');
  if (status === 409) return new WorkSaveError('stale', message);
  if (typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429) return new WorkSaveError('refused', message);
  return new WorkSaveError('retry', message);
}

export function serverWorkStore(dispatch: AppDispatch, uploadId: string, view: KeptWorkView): WorkStore {
  return {
    where: 'server',
    async load() {
      const answer = await dispatch(resultsApi.endpoints.getKeptWork.initiate({ id: uploadId, view }, { subscribe: false, forceRefetch: true })).unwrap();
      return { revision: answer.data.revision, document: answer.data.document };
    },
    async save(basedOn, document) {
      const body = { revision: basedOn, document: document as Record<string, unknown> };
      const keepalive = JSON.stringify(body).length < KEEPALIVE_MAX_BYTES;
      try {
        const answer = await dispatch(resultsApi.endpoints.saveKeptWork.initiate({ id: uploadId, view, body, keepalive })).unwrap();
        return answer.data.revision;
      } catch (error) {
        throw saveFailure(error);
      }
    },
  };
}

export function browserWorkStore(scope: BrowserWorkScope, uploadId: string, view: KeptWorkView): WorkStore {
  const key = browserWorkKey(scope, uploadId, view);
  return {
    where: 'browser',
    async load() {
      if (!browserKeepsWork()) throw new Error('This browser cannot keep your work.');
      const record = await readBrowserWork(key);
      return { revision: record?.revision ?? 0, document: record?.document ?? null };
    },
    async save(basedOn, document) {
      try {
        return await writeBrowserWork(key, uploadId, basedOn, document);
      } catch (error) {
        if (error instanceof BrowserWorkStale) throw new WorkSaveError('stale', error.message);
        // A full disk (quota) may clear up; anything else is tried again too.
        throw new WorkSaveError('retry', error instanceof Error ? error.message : 'This browser did not keep the work.');
      }
    },
  };
}
