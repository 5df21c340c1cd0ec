import { request } from 'node:http';

// Raw HTTP/1.1 to the Web port: fetch() normalizes `..` out of paths and will not send a Host
// header of our choosing, which is exactly what the traversal and DNS-rebinding cases need.

export interface HttpReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

export function http(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer, timeoutMs = 15_000): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers }, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

export function json(body: unknown): { headers: Record<string, string>; body: string } {
  return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

export function errorCode(reply: HttpReply): string | undefined {
  try {
    return (JSON.parse(reply.body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

export function errorReason(reply: HttpReply): unknown {
  try {
    return (JSON.parse(reply.body) as { error?: { details?: { reason?: unknown } } }).error?.details?.reason;
  } catch {
    return undefined;
  }
}
