// Runs a wasm32-wasip1 program under Node's WASI (preview1): what
// `cargo xtask cross-test` sets as CARGO_TARGET_WASM32_WASIP1_RUNNER.
//
//   node xtask/wasi-run.mjs program.wasm [args...]
//
// No directory is preopened (the tests need no files) but those that
// HQ_WASI_DIRS lists (colon-separated), each at its own path: the bench
// matrix's output directory (`cargo xtask bench-matrix --wasm`). The
// arguments and the environment are passed through; the exit status is
// the program's.
import { readFile } from "node:fs/promises";
import { WASI } from "node:wasi";
import process from "node:process";

const [program, ...args] = process.argv.slice(2);
if (!program) {
  console.error("usage: node wasi-run.mjs program.wasm [args...]");
  process.exit(2);
}
const wasi = new WASI({
  version: "preview1",
  args: [program, ...args],
  env: process.env,
  preopens: Object.fromEntries(
    (process.env.HQ_WASI_DIRS ?? "").split(":").filter((d) => d).map((d) => [d, d]),
  ),
  returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(program));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance) ?? 0;
