/**
 * Answers that hold a secret or a visitor's personal data: no cache may keep a copy. A module whose answers may hold one
 * takes both halves, so the header it sends and the one the reference describes are one.
 */
export const noStore = {
  /** For the module's `new Elysia({ detail })`: the header on each successful answer. */
  detail: {
    'x-answer-headers': {
      'Cache-Control': {
        description: "The answer may hold a secret or a visitor's personal data: no cache may keep a copy.",
        schema: { type: 'string', const: 'no-store' },
      },
    },
  },
  /** For the module's `onAfterHandle`. */
  hook: ({ set }: { set: { headers: Record<string, string | number> } }) => {
    set.headers['cache-control'] = 'no-store';
  },
};
