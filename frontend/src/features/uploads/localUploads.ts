import { textFoundIn, type UploadListItem } from '@frametext/contracts';
import { deleteLocalRecords, listLocalRecords, type LocalRecord } from '../../lib/localRecords';

/*
 * Uploads made on the Local page stay in the browser (lib/localRecords.ts). The list shows them beside the
 * server's uploads and deletes them there, never on the server.
 */

function toIso(value: string | number | undefined): string {
  const date = value === undefined ? new Date(NaN) : new Date(value);
  return Number.isNaN(date.getTime()) ? new Date(0).toISOString() : date.toISOString();
}

/** A local record as an upload card: always processed and numerical (spec section 3), with what its reading found. */
export function localRecordToItem(record: Pick<LocalRecord, 'id' | 'fileName' | 'uploadedAt' | 'data'>): UploadListItem {
  return {
    id: record.id,
    uploadName: record.fileName || record.id,
    uploadedAt: toIso(record.uploadedAt),
    imageUrl: record.data?.[0]?.thumb ?? null,
    status: 'processed',
    mediaContent: 'numerical',
    isLocal: true,
    ocrType: 'local',
    textFound: textFoundIn((record.data ?? []).map((frame) => frame.text ?? (frame.words ?? []).map((w) => w.text).join(' '))),
  };
}

export async function listLocalUploads(): Promise<UploadListItem[]> {
  return (await listLocalRecords()).map(localRecordToItem);
}

export const deleteLocalUploads = (ids: string[]): Promise<void> => deleteLocalRecords(ids);
