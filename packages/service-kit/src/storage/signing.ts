import { createHmac, timingSafeEqual } from 'node:crypto';

/** Query parameters of an fs presigned URL. */
export const SIGNED_PARAMS = {
  method: 'X-Method',
  expires: 'X-Expires',
  contentType: 'X-Content-Type',
  signature: 'X-Signature',
} as const;

export type SignedMethod = 'GET' | 'PUT';

export interface SignedRequest {
  method: SignedMethod;
  key: string;
  /** Unix seconds after which the URL stops working. */
  expires: number;
  /** PUT only: the Content-Type the uploader must send. */
  contentType?: string;
}

export function sign(secret: string, req: SignedRequest): string {
  // Newline-separated fields: none of them may contain a newline (keys refuse control characters), so two
  // different requests never produce the same string to sign.
  const payload = [req.method, req.key, String(req.expires), req.method === 'PUT' ? (req.contentType ?? '') : ''].join('\n');
  return createHmac('sha256', secret).update(payload).digest('hex');
}

export function signatureMatches(secret: string, req: SignedRequest, signature: string): boolean {
  const expected = Buffer.from(sign(secret, req), 'hex');
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export type Verdict =
  | { ok: true; request: SignedRequest }
  | { ok: false; reason: 'signature-invalid' | 'url-expired' | 'method-not-allowed' };

/**
 * Checks a presigned URL's query for the key in its path and the method it is used with. The signature is
 * checked first, so a tampered expiry or method reads as an invalid signature, not as an expired URL.
 */
export function verifySignedQuery(
  secret: string,
  key: string,
  query: Record<string, unknown>,
  usedMethod: string,
  nowMs = Date.now(),
): Verdict {
  const method = query[SIGNED_PARAMS.method];
  const expiresRaw = query[SIGNED_PARAMS.expires];
  const contentType = query[SIGNED_PARAMS.contentType];
  const signature = query[SIGNED_PARAMS.signature];
  if ((method !== 'GET' && method !== 'PUT') || typeof expiresRaw !== 'string' || typeof signature !== 'string') {
    return { ok: false, reason: 'signature-invalid' };
  }
  if (contentType !== undefined && typeof contentType !== 'string') return { ok: false, reason: 'signature-invalid' };
  if (!/^\d{1,12}$/.test(expiresRaw)) return { ok: false, reason: 'signature-invalid' };
  const request: SignedRequest = { method, key, expires: Number(expiresRaw), contentType };
  if (!signatureMatches(secret, request, signature)) return { ok: false, reason: 'signature-invalid' };
  if (nowMs > request.expires * 1000) return { ok: false, reason: 'url-expired' };
  const normalized = usedMethod === 'HEAD' ? 'GET' : usedMethod;
  if (normalized !== method) return { ok: false, reason: 'method-not-allowed' };
  return { ok: true, request };
}
