// Runs a script under MicroPython (WebAssembly build) with the button box firmware installed
// as /lib/tableside_box/ and the host's FakeMachine as /lib/machine.py.
// Usage: node run.mjs FIRMWARE_DIR FAKE_MACHINE_PY SCRIPT_PY
import fs from "node:fs";
import path from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const [firmwareDir, fakeMachine, script] = process.argv.slice(2);
let failed = false;
const mp = await loadMicroPython({
  heapsize: 4 * 1024 * 1024,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
mp.FS.mkdirTree("/lib/tableside_box");
for (const name of fs.readdirSync(firmwareDir)) {
  if (name.endsWith(".py") && name !== "main.py") {
    mp.FS.writeFile("/lib/tableside_box/" + name, fs.readFileSync(path.join(firmwareDir, name)));
  }
}
mp.FS.writeFile("/lib/machine.py", fs.readFileSync(fakeMachine));
try {
  mp.runPython(fs.readFileSync(script, "utf8"));
} catch (error) {
  failed = true;
  process.stderr.write(String(error.message || error) + "\n");
}
process.exit(failed ? 1 : 0);
