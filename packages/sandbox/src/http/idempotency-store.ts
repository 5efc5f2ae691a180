/**
 * @module
 * Idempotency records of one environment, keyed by API key and `Idempotency-Key`. A key is claimed
 * synchronously before any work starts, so two concurrent requests with one key can never both run.
 */
import { SandboxError } from './sandbox-error';

/** A remembered response. */
export interface StoredResponse {
  status: number;
  body: unknown;
}

interface IdempotencyRecord {
  fingerprint: string;
  createdAtMs: number;
  response: StoredResponse | null;
}

/** The outcome of claiming a key: run the request, or replay the stored response. */
export type IdempotencyClaim = { kind: 'run' } | { kind: 'replay'; response: StoredResponse };

/** Remembers the first successful response of each key for a while (24 hours by default). */
export class IdempotencyStore {
  readonly #records = new Map<string, IdempotencyRecord>();
  readonly #ttlMs: number;

  constructor(ttlMs: number) {
    this.#ttlMs = ttlMs;
  }

  /**
   * Claims `key` for a request with `fingerprint` (method, path and canonical body). Throws
   * `idempotency_conflict` 409 while another request with the key runs, 422 when the key was used with
   * another request.
   */
  claim(key: string, fingerprint: string, nowMs: number): IdempotencyClaim {
    const existing = this.#records.get(key);
    if (existing && nowMs - existing.createdAtMs >= this.#ttlMs) this.#records.delete(key);
    const record = this.#records.get(key);
    if (!record) {
      this.#records.set(key, { fingerprint, createdAtMs: nowMs, response: null });
      return { kind: 'run' };
    }
    if (record.fingerprint !== fingerprint) {
      throw new SandboxError('idempotency_conflict', {
        status: 422,
        params: { field: 'Idempotency-Key', reason: 'key_reused_with_different_request' },
      });
    }
    if (!record.response) {
      throw new SandboxError('idempotency_conflict', {
        status: 409,
        params: { field: 'Idempotency-Key', reason: 'request_in_progress' },
        retryAfterSeconds: 1,
      });
    }
    return { kind: 'replay', response: record.response };
  }

  /** Stores the response of a claimed key. */
  complete(key: string, response: StoredResponse): void {
    const record = this.#records.get(key);
    if (record) record.response = response;
  }

  /** Frees a claimed key after a failure, so a retry runs again. */
  release(key: string): void {
    const record = this.#records.get(key);
    if (record && !record.response) this.#records.delete(key);
  }
}
