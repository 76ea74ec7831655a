/** Typed `meta` for queries and mutations: `silent` keeps a failure out of the global notice. */
export interface PortcullisQueryMeta extends Record<string, unknown> {
  silent?: boolean;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: PortcullisQueryMeta;
    mutationMeta: PortcullisQueryMeta;
  }
}
