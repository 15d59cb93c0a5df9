// One clock for the service, so the rules that depend on time read it in one place.
export const now = (): Date => new Date();

export const iso = (d: Date | string | null | undefined): string | null =>
  d == null ? null : new Date(d).toISOString();
