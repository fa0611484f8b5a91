// Times the selectors of bench/cel_bench.cc that need no Kubernetes extension (quantity() and
// semver() exist only in Kubernetes' CEL) in the two JavaScript CEL implementations, on the
// same device data, parse once / evaluate many. Run through scripts/bench-cel-js, which
// installs the packages into a temporary directory. Each selector is timed REPS times
// (environment, default 5), the libraries and selectors interleaved so that a slow moment of
// the machine does not fall on one of them alone; prints the median and the minimum ns per
// evaluation, and with --json one JSON object instead (for the script's ratio table).
import { celEnv, parse as bufParse, plan as bufPlan, isCelError } from "@bufbuild/cel";
import { parse as mbParse } from "@marcbachmann/cel-js";

// Index in bench/cel_bench.cc's kSelectors -> expression.
const selectors = {
  1: `device.driver == "gpu.example.com"`,
  2: `device.attributes["resource.kubernetes.io"].pciBusID == "0008:06:00.0"`,
  3: `has(device.attributes["dra.net"].ifName) && device.attributes["dra.net"].ifName == "dummy0"`,
  4: `device.attributes['gpu.nvidia.com'].profile == '1g.5gb'`,
  6: `device.attributes["dra.net"].rdma == true && device.attributes["dra.net"].numaNode == 0`,
  7: `device.attributes["resource.kubernetes.io"]["pciBusID"] in ["0001:00:00.0","0002:00:00.0","0003:00:00.0","0008:06:00.0"]`,
  8: `device.attributes["dra.net"].cloudNetwork.contains("dranet-net")`,
};

// The device of bench/cel_bench.cc (ints as BigInt: CEL ints are 64-bit).
const device = {
  driver: "gpu.example.com",
  attributes: {
    "gpu.example.com": { model: "A100" },
    "resource.kubernetes.io": { pciBusID: "0008:06:00.0" },
    "dra.net": { ifName: "dummy0", rdma: true, numaNode: 0n, cloudNetwork: "projects/x/dranet-net" },
    "gpu.nvidia.com": { profile: "1g.5gb" },
  },
};

function time(fn) {
  for (let i = 0; i < 20000; i++) fn();  // warm up the JIT
  let iterations = 20000;
  for (;;) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) fn();
    const ns = Number(process.hrtime.bigint() - start);
    if (ns > 3e8) return ns / iterations;
    iterations *= 2;
  }
}

// Compiles and checks one library's evaluator; null (with the reason printed) when the
// library rejects the selector or gives another answer than true, as cel-go does.
function prepare(name, index, make) {
  try {
    const run = make();
    const result = run();
    if (result === true) return run;
    console.error(`${name}: selector ${index} gives ${result}, not true`);
  } catch (e) {
    console.error(`${name}: selector ${index} rejected: ${String(e.message).split("\n")[0]}`);
  }
  return null;
}

const env = celEnv();
const runs = [];  // {index, lib, fn, times}
for (const [index, expr] of Object.entries(selectors)) {
  const buf = prepare("@bufbuild/cel", index, () => {
    const p = bufPlan(env, bufParse(expr));
    return () => { const r = p({ device }); return isCelError(r) ? r.message : r; };
  });
  const mb = prepare("@marcbachmann/cel-js", index, () => {
    const p = mbParse(expr);
    return () => p({ device });
  });
  runs.push({ index, lib: "@bufbuild/cel", fn: buf, times: [] });
  runs.push({ index, lib: "@marcbachmann/cel-js", fn: mb, times: [] });
}
const reps = Math.max(1, Number(process.env.REPS ?? 5));
for (let rep = 0; rep < reps; rep++) {
  for (const run of runs) if (run.fn) run.times.push(time(run.fn));
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const summary = {};  // index -> lib -> {median, min} or null
for (const run of runs) {
  summary[run.index] ??= {};
  summary[run.index][run.lib] =
    run.times.length ? { median: median(run.times), min: Math.min(...run.times) } : null;
}
if (process.argv.includes("--json")) {
  console.log(JSON.stringify({ reps, selectors: summary }));
} else {
  const cell = (t) => (t === null ? "n/a" : `${t.median.toFixed(0)} (min ${t.min.toFixed(0)})`);
  console.log(`selector\t@bufbuild/cel ns\t@marcbachmann/cel-js ns\t(median of ${reps})`);
  for (const [index, libs] of Object.entries(summary)) {
    console.log(`${index}\t${cell(libs["@bufbuild/cel"])}\t${cell(libs["@marcbachmann/cel-js"])}`);
  }
}
