import { type ClientRequest, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { waitFor } from './wait-for';

/** A document as the knowledge base routes list it. */
export interface KnowledgeBaseDoc {
  fileName: string;
  url: string;
  uploadedAt: string;
  size: number;
  contentType: string;
  status: string;
  statusReason: string | null;
}

export type UploadFiles = Array<[name: string, bytes: Buffer]>;

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The knowledge base routes over HTTP, as `token` (each call may name another caller). */
export function knowledgeBaseApi(http: TestAgent, token: string) {
  const multipart = (req: Test, fields: Record<string, string>, files: UploadFiles): Test => {
    for (const [name, value] of Object.entries(fields)) void req.field(name, value);
    for (const [name, bytes] of files) void req.attach('files', bytes, name);
    return req;
  };
  const documents = async (id: string, as = token): Promise<KnowledgeBaseDoc[]> =>
    (await http.get(`/api/knowledgeBase/${id}/documents`).set(bearer(as)).expect(200)).body
      .data as KnowledgeBaseDoc[];
  return {
    create: (fields: Record<string, string>, files: UploadFiles = [], as = token): Test =>
      multipart(http.post('/api/knowledgeBase/createKnowledgeBase').set(bearer(as)), fields, files),
    update: (id: string, fields: Record<string, string>, files: UploadFiles = []): Test =>
      multipart(http.put(`/api/knowledgeBase/${id}`).set(bearer(token)), fields, files),
    documents,
    /** The base's documents once none is still being extracted. */
    settled: (id: string, timeoutMs = 60_000) =>
      waitFor(
        async () => {
          const docs = await documents(id);
          return docs.every((doc) => doc.status !== 'processing') && docs;
        },
        { timeoutMs, what: 'documents to leave processing' },
      ),
    search: (id: string, q: string, as = token): Test =>
      http.get(`/api/knowledgeBase/${id}/search`).query({ q }).set(bearer(as)),
  };
}

export type KnowledgeBaseApi = ReturnType<typeof knowledgeBaseApi>;

/**
 * Starts creating a base with one file of `fileBytes` over a raw connection and leaves the
 * request open (the caller destroys it: a client gone mid-upload).
 */
export async function beginUpload(
  server: Server,
  token: string,
  fileBytes: number,
): Promise<ClientRequest> {
  if (!server.listening) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  }
  const { port } = server.address() as AddressInfo;
  const boundary = 'cut-upload-boundary';
  const upload = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/knowledgeBase/createKnowledgeBase',
    headers: { ...bearer(token), 'Content-Type': `multipart/form-data; boundary=${boundary}` },
  });
  upload.on('error', () => undefined);
  upload.write(
    `--${boundary}\r\nContent-Disposition: form-data; name="knowledgeBaseName"\r\n\r\ncut\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="cut.txt"\r\n` +
      'Content-Type: text/plain\r\n\r\n',
  );
  upload.write(Buffer.alloc(fileBytes, 'c'));
  return upload;
}
