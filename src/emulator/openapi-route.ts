/**
 * `GET /openapi.json`: the OpenAPI 3.1 description of the service (src/openapi/build.ts), the same document as
 * docs/openapi.json, on the address that serves the control API and the access-granting page (every address on the
 * one-origin shape), so that a tool pointed at the emulator finds it there (docs/emulator.md, "OpenAPI description").
 */
import type { FastifyInstance } from 'fastify';
import { openApiJson } from '../openapi/build.js';

export const OPENAPI_PATH = '/openapi.json';

export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  // Built on the first request: it reads the spec's tables, which no other request needs.
  let text: string | undefined;
  app.get(OPENAPI_PATH, async (_request, reply) => reply.code(200).header('content-type', 'application/json; charset=utf-8').send(text ??= openApiJson()));
}
