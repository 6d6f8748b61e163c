export declare function summary(
  suites: string[],
  totals: { passed: number; failed: number; skipped: number },
  skippedEngines?: { name: string; why: string }[],
  failed?: string[],
): string;
