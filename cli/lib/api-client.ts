import { CliFailure, EXIT } from '../base-command.ts';
import type { ApiTarget } from './api-target.ts';

const DEFAULT_TIMEOUT_MS = 20_000;
const LOGIN_HINT = 'Run `calc login`.';

export interface ApiResponse<T> {
  status: number;
  body: T;
}

interface RequestOptions {
  body?: unknown;
  /** false for sign-in and the public catalogue: no token needed or sent. */
  auth?: boolean;
}

/**
 * The owner commands' only way to the server. Every failure becomes a CliFailure with
 * one line for a person: network trouble and server errors exit 1 (the server's message
 * shown as is), a missing or rejected token exits 4 with a hint to sign in.
 */
export class ApiClient {
  readonly baseUrl: string;

  constructor(
    private readonly target: ApiTarget,
    private readonly timeoutMs: number = timeoutFromEnv(),
  ) {
    this.baseUrl = target.baseUrl;
  }

  get<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.request<T>('GET', path, options);
  }

  post<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.request<T>('POST', path, options);
  }

  put<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.request<T>('PUT', path, options);
  }

  delete<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.request<T>('DELETE', path, options);
  }

  /** Whether a token would be sent (a command that also works signed out asks). */
  get signedIn(): boolean {
    return this.target.token !== null;
  }

  /** Fails as "not signed in" before a command asks anything of the person. */
  ensureSignedIn(): void {
    if (!this.target.token)
      throw new CliFailure(`${this.target.missingTokenReason} ${LOGIN_HINT}`, EXIT.auth, 'not_signed_in');
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const auth = options.auth ?? true;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (auth) {
      this.ensureSignedIn();
      headers.authorization = `Bearer ${this.target.token}`;
    }
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await this.fetch(method, path, headers, options.body);
    const text = await this.readText(response);
    const body = parseJson(text);
    if (response.status >= 400) throw this.serverFailure(response.status, body, auth);
    if (response.status >= 300) {
      // Redirects are not followed: a POST would turn into a GET, and the token must not travel on.
      throw new CliFailure(
        `The server at ${this.baseUrl} answered with a redirect to ${response.headers.get('location') ?? '(nowhere)'}; use that address as --api-url.`,
        EXIT.failure,
        'not_a_calc_server',
      );
    }
    if (body === undefined)
      throw new CliFailure(
        `The server at ${this.baseUrl} answered HTTP ${response.status} without calc's JSON; is --api-url a calc server?`,
        EXIT.failure,
        'not_a_calc_server',
      );
    return { status: response.status, body: body as T };
  }

  /**
   * A GET whose answer is a stream (an export): failures as for `request`; the time limit
   * covers the wait for the answer's headers, not the stream, which may take minutes.
   */
  async stream(path: string): Promise<ReadableStream<Uint8Array>> {
    this.ensureSignedIn();
    const headers = { authorization: `Bearer ${this.target.token}` };
    const started = new AbortController();
    const timer = setTimeout(() => started.abort(new DOMException('timed out', 'TimeoutError')), this.timeoutMs);
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, { headers, redirect: 'manual', signal: started.signal });
    } catch (error) {
      throw this.networkFailure(error);
    } finally {
      clearTimeout(timer);
    }
    if (response.status >= 400)
      throw this.serverFailure(response.status, parseJson(await this.readText(response)), true);
    if (response.status !== 200 || !response.body)
      throw new CliFailure(
        `The server at ${this.baseUrl} answered HTTP ${response.status} without the stream; is --api-url a calc server?`,
        EXIT.failure,
        'not_a_calc_server',
      );
    return response.body;
  }

  private async fetch(method: string, path: string, headers: Record<string, string>, body: unknown): Promise<Response> {
    try {
      return await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw this.networkFailure(error);
    }
  }

  private async readText(response: Response): Promise<string> {
    try {
      return await response.text();
    } catch (error) {
      throw this.networkFailure(error);
    }
  }

  private serverFailure(status: number, body: unknown, auth: boolean): CliFailure {
    const envelope = errorEnvelope(body);
    const message = envelope?.message ?? `The server at ${this.baseUrl} answered HTTP ${status}.`;
    // 401 on a signed-in request means the token itself was refused, unless it says a
    // password was wrong (sign-in, or a password confirmed again by a signed-in owner).
    if (status === 401 && auth && envelope?.code !== 'invalid_credentials')
      return new CliFailure(`${message} ${LOGIN_HINT}`, EXIT.auth, envelope?.code);
    return new CliFailure(message, EXIT.failure, envelope?.code, envelope?.details);
  }

  private networkFailure(error: unknown): CliFailure {
    const { name, code, message } = error as { name?: string; code?: string; message?: string };
    const where = `the calc server at ${this.baseUrl}`;
    if (name === 'TimeoutError' || name === 'AbortError')
      return new CliFailure(
        `No answer from ${where} within ${this.timeoutMs / 1000} s.`,
        EXIT.failure,
        'server_unreachable',
      );
    if (code === 'ECONNREFUSED' || code === 'ConnectionRefused') {
      return new CliFailure(
        `Cannot connect to ${where}: connection refused. Is it running? Choose another server with --api-url or CALC_API_URL.`,
        EXIT.failure,
        'server_unreachable',
      );
    }
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return new CliFailure(
        `Cannot connect to ${where}: host ${new URL(this.baseUrl).hostname} not found.`,
        EXIT.failure,
        'server_unreachable',
      );
    if (code === 'ECONNRESET')
      return new CliFailure(
        `The connection to ${where} was closed before it answered.`,
        EXIT.failure,
        'server_unreachable',
      );
    return new CliFailure(
      `Cannot reach ${where}: ${firstLine(message ?? String(error))}`,
      EXIT.failure,
      'server_unreachable',
    );
  }
}

function errorEnvelope(body: unknown): { code?: string; message: string; details?: unknown } | null {
  if (typeof body !== 'object' || body === null) return null;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return null;
  const { code, message, details } = error as { code?: unknown; message?: unknown; details?: unknown };
  if (typeof message !== 'string') return null;
  return { code: typeof code === 'string' ? code : undefined, message, details };
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}

/** `CALC_TIMEOUT_MS` (whole request, including the body); 20 s by default. */
function timeoutFromEnv(env: Record<string, string | undefined> = process.env): number {
  const value = Number(env.CALC_TIMEOUT_MS);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_TIMEOUT_MS;
}
