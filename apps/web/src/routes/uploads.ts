import { MAX_BLOB_UPLOAD_BYTES, type AttachmentRefV1 } from '@cccc/ipc-protocol';
import { HttpError } from '../http/errors.js';
import { parseJsonText } from '../http/json-text.js';
import type { MultipartForm } from '../http/multipart.js';
import { BY, type ApiRoutes } from './api-routes.js';
import { assertOpArgs } from './op-args.js';

/** Files per message and the whole request (the per-file limit is the daemon's blob limit). */
export const MAX_UPLOAD_FILES = 20;
export const MAX_UPLOAD_BODY_BYTES = 64 * 1024 * 1024;

export const UPLOAD_LIMITS = { maxBodyBytes: MAX_UPLOAD_BODY_BYTES, maxFiles: MAX_UPLOAD_FILES, maxFileBytes: MAX_BLOB_UPLOAD_BYTES };

function jsonList(form: MultipartForm, name: string): unknown[] | undefined {
  const raw = form.fields.get(name)?.trim();
  if (!raw) return undefined;
  const value = parseJsonText(raw, name, name);
  if (!Array.isArray(value)) throw new HttpError(400, 'invalid_request', `${name} must be a JSON array`, { field: name });
  return value;
}

function recipients(form: MultipartForm): string[] | undefined {
  const list = jsonList(form, 'to_json');
  if (!list) return undefined;
  if (!list.every((x): x is string => typeof x === 'string')) throw new HttpError(400, 'invalid_request', 'to_json must list strings', { field: 'to_json' });
  return list.map((x) => x.trim()).filter(Boolean);
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
export function registerUploadRoutes(api: ApiRoutes): void {
  const { client } = api;

  const storeFiles = async (group_id: string, form: MultipartForm) => {
    const attachments: AttachmentRefV1[] = [];
    for (const file of form.files) {
      attachments.push(await client.uploadBlob({ group_id, name: file.name || 'file', content: file.content, by: BY }));
    }
    return attachments.length > 0 ? { attachments } : {};
  };

  api.upload('send_upload', UPLOAD_LIMITS, async (form, { group_id }) => {
    const path = form.fields.get('path')?.trim();
    const message = { ...messageFields(form), ...(path ? { path } : {}), message_mode: form.fields.get('message_mode')?.trim() || 'send', group_id, by: BY };
    const preflight = { ...message, operation: 'send' as const, has_attachments: form.files.length > 0 };
    assertOpArgs('message_upload_preflight', preflight);
    const checked = await client.call('message_upload_preflight', preflight);
    if (!checked.ready) return checked.result;
    const args = { ...message, ...(await storeFiles(group_id, form)) };
    assertOpArgs('send', args);
    return client.call('send', args);
  });

  api.upload('reply_upload', UPLOAD_LIMITS, async (form, { group_id }) => {
    const reply_to = form.fields.get('reply_to')?.trim();
    if (!reply_to) throw new HttpError(400, 'missing_reply_to', 'reply_to is required', { field: 'reply_to' });
    const message = { ...messageFields(form), reply_to, message_mode: form.fields.get('message_mode')?.trim() || 'send', group_id, by: BY };
    const preflight = { ...message, operation: 'reply' as const, has_attachments: form.files.length > 0 };
    assertOpArgs('message_upload_preflight', preflight);
    const checked = await client.call('message_upload_preflight', preflight);
    if (!checked.ready) return checked.result;
    const args = { ...message, ...(await storeFiles(group_id, form)) };
    assertOpArgs('reply', args);
    return client.call('reply', args);
  });
}
