import { MAX_BLOB_UPLOAD_BYTES, type AttachmentRefV1 } from '@cccc/ipc-protocol';
import { HttpError } from '../http/errors.js';
import { readMultipart, type MultipartForm } from '../http/multipart.js';
import { Router } from '../http/router.js';
import { BY, type RouteDeps } from './deps.js';

/** Files per message and the whole request (the per-file limit is the daemon's blob limit). */
export const MAX_UPLOAD_FILES = 20;
export const MAX_UPLOAD_BODY_BYTES = 64 * 1024 * 1024;

const LIMITS = { maxBodyBytes: MAX_UPLOAD_BODY_BYTES, maxFiles: MAX_UPLOAD_FILES, maxFileBytes: MAX_BLOB_UPLOAD_BYTES };

function jsonList(form: MultipartForm, name: string): unknown[] | undefined {
  const raw = form.fields.get(name)?.trim();
  if (!raw) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new HttpError(400, 'invalid_request', `${name} is not valid JSON`, { field: name });
  }
  if (!Array.isArray(value)) throw new HttpError(400, 'invalid_request', `${name} must be a JSON array`, { field: name });
  return value;
}

function recipients(form: MultipartForm): string[] | undefined {
  const list = jsonList(form, 'to_json');
  if (!list) return undefined;
  if (!list.every((x) => typeof x === 'string')) throw new HttpError(400, 'invalid_request', 'to_json must list strings', { field: 'to_json' });
  return (list as string[]).map((x) => x.trim()).filter(Boolean);
}

/** The message fields both upload routes share; empty fields are left out. */
function messageFields(form: MultipartForm) {
  const field = (name: string) => {
    const v = form.fields.get(name);
    return v !== undefined && v.trim() !== '' ? v : undefined;
  };
  const to = recipients(form);
  const refs = jsonList(form, 'refs_json');
  return {
    text: form.fields.get('text') ?? '',
    ...(to ? { to } : {}),
    ...(refs ? { refs } : {}),
    ...(field('message_mode') ? { message_mode: field('message_mode')!.trim() } : {}),
    ...(field('client_id') ? { client_id: field('client_id')!.trim() } : {}),
    ...(field('insight') ? { insight: field('insight') } : {}),
  };
}

/**
 * `POST /send_upload` and `/reply_upload` (REFERENCE_NOTES §8.2): multipart `text`, `to_json`,
 * `refs_json`, `message_mode`, `client_id` (+ `path` / `reply_to`) and `files`. The spec's Web
 * flow: `message_upload_preflight` with the daemon's own rules first (a refusal or a duplicate
 * `client_id` stores nothing), then each file into the group blob store through the daemon
 * (`blob_upload`: the Web never writes under CCCC_HOME), then one `send` / `reply` carrying the
 * attachment records, which validates everything again at its commit boundary.
 */
export function uploadRoutes({ client }: RouteDeps): Router {
  const r = new Router('/api/v1/groups/:gid');

  const handle = async (gid: string, form: MultipartForm, operation: 'send' | 'reply') => {
    const fields = messageFields(form);
    const replyTo = form.fields.get('reply_to')?.trim();
    const path = form.fields.get('path')?.trim();
    if (operation === 'reply' && !replyTo) throw new HttpError(400, 'missing_reply_to', 'reply_to is required', { field: 'reply_to' });
    const mode = (fields.message_mode ?? 'send') as 'send' | 'request_reply' | 'mail';
    const target = operation === 'reply' ? { reply_to: replyTo! } : path ? { path } : {};
    const preflight = (await client.call('message_upload_preflight', {
      operation,
      group_id: gid,
      by: BY,
      ...fields,
      ...target,
      message_mode: mode,
      has_attachments: form.files.length > 0,
    } as never)) as { ready: boolean; duplicate?: boolean; result?: unknown };
    if (!preflight.ready && preflight.duplicate) return preflight.result;
    const attachments: AttachmentRefV1[] = [];
    for (const file of form.files) {
      attachments.push(await client.uploadBlob({ group_id: gid, name: file.name || 'file', content: file.content, by: BY }));
    }
    const args = { ...fields, ...target, message_mode: mode, group_id: gid, by: BY, ...(attachments.length > 0 ? { attachments } : {}) };
    return operation === 'reply' ? client.call('reply', args as never) : client.call('send', args as never);
  };

  r.post('/send_upload', async (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    return handle(gid, await readMultipart(ctx.req, LIMITS), 'send');
  });
  r.post('/reply_upload', async (ctx) => {
    const gid = ctx.params.gid!;
    ctx.requireGroup(gid);
    return handle(gid, await readMultipart(ctx.req, LIMITS), 'reply');
  });
  return r;
}
