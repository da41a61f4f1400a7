import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { BlobStore, StagedBlob } from '../../../platform/blob-store/blob-store';
import { DomainError } from '../../../platform/errors/domain-error';
import { MAX_PRICE_CENTS } from '../domain/listing-fields';

/** A release upload's multipart body, read: the archive staged on disk and the validated fields. */
export interface ReleaseUploadForm {
  staged: StagedBlob;
  priceCents: number;
  signature: string | null;
}

const FIELDS = new Set(['priceCents', 'signature']);

/**
 * Reads the form at the edge, as a DTO would be: the archive streams to disk
 * (413 past `maxBytes`), fields are checked, and a refused form leaves nothing
 * staged. The caller discards `staged` once done with it.
 */
export async function readReleaseUploadForm(
  request: FastifyRequest,
  blobs: BlobStore,
  maxBytes: number,
): Promise<ReleaseUploadForm> {
  if (!request.isMultipart())
    throw new DomainError('invalid', 'Send the release as multipart/form-data with an "archive" file field');
  let staged: StagedBlob | undefined;
  const fields: Record<string, string> = {};
  try {
    for await (const part of multipartParts(request)) {
      if (part.type === 'file') {
        if (part.fieldname !== 'archive' || staged) {
          part.file.resume();
          throw new DomainError('invalid', `Unexpected file field "${part.fieldname}": send one file, as "archive"`);
        }
        staged = await blobs.stage(part.file, maxBytes).catch(unreadableUpload);
        if (part.file.truncated) throw new DomainError('payload_too_large', `The archive is larger than ${maxBytes} bytes`);
      } else {
        if (!FIELDS.has(part.fieldname)) throw new DomainError('invalid', `Unknown field "${part.fieldname}"`);
        if (part.fieldname in fields) throw new DomainError('invalid', `Field "${part.fieldname}" is sent more than once`);
        fields[part.fieldname] = String(part.value);
      }
    }
    if (!staged) throw new DomainError('invalid', 'archive is required: attach the .zip as the "archive" file field');
    return {
      staged,
      priceCents: parsePrice(fields.priceCents),
      signature: fields.signature?.trim() ? fields.signature.trim() : null,
    };
  } catch (error) {
    if (staged) await blobs.discard(staged);
    throw error;
  }
}

function parsePrice(raw: string | undefined): number {
  if (raw === undefined) throw new DomainError('invalid', 'priceCents is required (0 for a free package)');
  if (!/^\d{1,9}$/.test(raw.trim()) || Number(raw) > MAX_PRICE_CENTS) {
    throw new DomainError('invalid', `priceCents must be an integer from 0 to ${MAX_PRICE_CENTS}`);
  }
  return Number(raw);
}

/** A file stream that broke off mid-body is the caller's 400; disk errors (ENOSPC ...) stay 500s. */
function unreadableUpload(error: unknown): never {
  const { code, statusCode } = error as { code?: string; statusCode?: number };
  if (error instanceof DomainError || (statusCode !== undefined && statusCode < 500) || /^E[A-Z]+$/.test(code ?? '')) throw error;
  throw new DomainError('invalid', `The archive upload could not be read: ${(error as Error).message}`);
}

/** The request's parts; a body the multipart parser cannot read is the caller's 400, not our 500. */
async function* multipartParts(request: FastifyRequest): AsyncGenerator<Multipart> {
  const parts = request.parts();
  for (;;) {
    let next: IteratorResult<Multipart>;
    try {
      next = await parts.next();
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      if (error instanceof DomainError || (status !== undefined && status < 500)) throw error;
      throw new DomainError('invalid', `The multipart/form-data body could not be read: ${(error as Error).message}`);
    }
    if (next.done) return;
    yield next.value;
  }
}
