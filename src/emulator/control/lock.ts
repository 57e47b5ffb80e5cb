/**
 * The run lock of the control API (issue 37 §5): one run at a time per emulator. Two runs against one target (two CI
 * jobs on one sandbox) reset, move the clock and switch faults under each other and both end in false failures; a run
 * takes this lock before its first rule and releases it at its end. The lock is a lease: a run that crashed without
 * releasing it holds it only until its lease runs out, and a live run renews it while it runs.
 *
 * Kept apart from the emulator's state: `POST /_control/reset` (which the run holding the lock calls) leaves it alone,
 * and its times are real time, not the emulator clock a run moves.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { methodNotAllowed } from '../errors.js';
import { badRequest, controlBody, requiredString } from './validate.js';

/** A lease no renewal came for in this time is over: long enough for a run's slowest rule between two renewals. */
export const DEFAULT_LEASE_SECONDS = 120;
const MAX_LEASE_SECONDS = 3600;

interface Holder {
  readonly runId: string;
  readonly startedAt: number;
  expiresAt: number;
}

const json = (reply: FastifyReply, status: number, body: unknown): FastifyReply =>
  reply.code(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));

const seconds = (ms: number): number => Math.floor(ms / 1000);

function view(h: Holder | undefined): Record<string, unknown> {
  return h ? { held: true, run_id: h.runId, started_at: seconds(h.startedAt), expires_at: seconds(h.expiresAt) } : { held: false };
}

function refusal(h: Holder): Record<string, unknown> {
  const detail = `the emulator is locked by run ${h.runId}, started at ${new Date(h.startedAt).toISOString()} (its lease ends at ${new Date(h.expiresAt).toISOString()} unless renewed)`;
  return { title: 'Conflict', type: 'https://developers.example/errors/409', status: 409, detail, ...view(h) };
}

export function lockRoutes(app: FastifyInstance, path: string, now: () => number = Date.now): void {
  let holder: Holder | undefined;
  const current = (): Holder | undefined => {
    if (holder && holder.expiresAt <= now()) holder = undefined;
    return holder;
  };

  app.get(path, async (_request, reply) => json(reply, 200, view(current())));
  // Takes the lock, or renews it for the run that holds it; another run's live lease is a 409 naming it.
  app.post(path, async (request, reply) => {
    const body = controlBody(request.body);
    const runId = requiredString(body, 'run_id');
    if (runId === '') throw badRequest('`run_id` must not be empty');
    const lease = body.lease_seconds ?? DEFAULT_LEASE_SECONDS;
    if (typeof lease !== 'number' || !Number.isSafeInteger(lease) || lease < 1 || lease > MAX_LEASE_SECONDS) {
      throw badRequest(`\`lease_seconds\` must be an integer from 1 to ${MAX_LEASE_SECONDS}`);
    }
    const h = current();
    if (h && h.runId !== runId) return json(reply, 409, refusal(h));
    holder = { runId, startedAt: h?.startedAt ?? now(), expiresAt: now() + lease * 1000 };
    return json(reply, 200, view(holder));
  });
  // Releases the lock of `run_id`; a lock already free (or run out) is released too, another run's is a 409.
  app.delete(path, async (request, reply) => {
    const runId = requiredString(controlBody(request.body), 'run_id');
    const h = current();
    if (h && h.runId !== runId) return json(reply, 409, refusal(h));
    holder = undefined;
    return json(reply, 200, view(undefined));
  });
  methodNotAllowed(app, path, ['GET', 'POST', 'DELETE']);
}
