// Where a CPU profile's time went (a `.cpuprofile` from `node --cpu-prof` or Chromium's CDP
// Profiler): busy time summed by function, by source file and by package, idle left out. Used by
// bench/profile-server.ts and bench/profile-table.ts.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** The parts of the V8 CPU profile format read here. */
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileTotals {
  /** Busy milliseconds in all. */
  total: number;
  /** Self time per "function file:line". */
  self: Map<string, number>;
  byFile: Map<string, number>;
  /** Per npm package, "node internals", "own code" (any other URL) or "(native, gc)". */
  byPackage: Map<string, number>;
}

function add(map: Map<string, number>, key: string, ms: number): void {
  map.set(key, (map.get(key) ?? 0) + ms);
}

export function profileTotals(profile: CpuProfile): ProfileTotals {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals: ProfileTotals = {
    total: 0,
    self: new Map(),
    byFile: new Map(),
    byPackage: new Map(),
  };
  profile.samples.forEach((id, index) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame || frame.functionName === '(idle)') return;
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    const file = frame.url.split('/').pop() || '(native)';
    totals.total += ms;
    add(totals.self, `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber}`, ms);
    add(totals.byFile, file, ms);
    add(
      totals.byPackage,
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url)?.[1] ??
        (frame.url.startsWith('node:')
          ? 'node internals'
          : frame.url
            ? 'own code'
            : '(native, gc)'),
      ms,
    );
  });
  return totals;
}

/** The `n` largest entries of `map`, largest first. */
export function largest(map: Map<string, number>, n: number): Array<[string, number]> {
  return [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
}
