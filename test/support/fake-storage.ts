/**
 * A Storage over a Map, for stores under test (several stores on one are a site's tabs), whose
 * methods can be made to throw; `writes` lists the keys written, in order.
 */
export function fakeStorage(fail: { get?: boolean; set?: boolean } = {}) {
  const data = new Map<string, string>();
  const writes: string[] = [];
  return {
    data,
    writes,
    storage: {
      getItem: (k: string) => { if (fail.get) throw new DOMException('blocked', 'SecurityError'); return data.get(k) ?? null; },
      setItem: (k: string, v: string) => { if (fail.set) throw new DOMException('full', 'QuotaExceededError'); writes.push(k); data.set(k, v); },
      removeItem: (k: string) => { data.delete(k); },
    } as unknown as Storage,
  };
}
