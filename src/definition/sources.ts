/**
 * Where an input's value came from, as the widget reports it (`calc:ready`, and with a
 * sent result as `sources`): the input's default, the page's `data-values`, the webhook's
 * pre-fill, or the visitor's own typing. Browser-safe.
 */
export const VALUE_SOURCES = ['default', 'embed', 'webhook', 'typed'] as const;
