/**
 * Who may call a route group from a page on another origin.
 * - `any-origin`: the widget's routes, called by every embedding page: any origin may
 *   read the answer (access is decided by the API key and the domain check, not by CORS),
 *   and preflights are answered.
 * - `same-origin`: owner and site routes: no CORS headers, so browsers keep other pages
 *   from reading them.
 */
export type CorsPolicy = 'any-origin' | 'same-origin';

const ANY_ORIGIN: Readonly<Record<string, string>> = { 'access-control-allow-origin': '*' };

/** The headers every answer of a group carries (errors included). */
export function corsHeaders(policy: CorsPolicy): Readonly<Record<string, string>> | undefined {
  return policy === 'any-origin' ? ANY_ORIGIN : undefined;
}

/** The answer to a preflight (`OPTIONS`) on an any-origin route, cached a day by browsers. */
export function preflightAnswer(requestId: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...ANY_ORIGIN,
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': 'Content-Type',
      'access-control-max-age': '86400',
      'x-request-id': requestId,
    },
  });
}
