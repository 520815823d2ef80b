// Runs a Python script under MicroPython's WebAssembly port (a real MicroPython, v1.27) in Node.
// usage: node mp_wasm_run.mjs FIRMWARE_DIR SCRIPT.py [HOST_FILE=/wasm/path ...]
// FIRMWARE_DIR/lib/*.py are copied to /lib in the in-memory filesystem, as on a board.
// Exit status 0 when the script finished, 1 with the MicroPython traceback on stderr otherwise.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [firmwareDir, script, ...extras] = process.argv.slice(2);
const pkg = path.join(
  firmwareDir, "node_modules", "@micropython", "micropython-webassembly-pyscript", "micropython.mjs",
);
const { loadMicroPython } = await import(pathToFileURL(pkg).href);
const mp = await loadMicroPython({
  heapsize: 8 * 1024 * 1024,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
mp.FS.mkdir("/lib");
const lib = path.join(firmwareDir, "lib");
for (const name of fs.readdirSync(lib)) {
  if (name.endsWith(".py")) mp.FS.writeFile("/lib/" + name, fs.readFileSync(path.join(lib, name)));
}
for (const pair of extras) {
  const [host, dest] = pair.split("=");
  const dir = path.posix.dirname(dest);
  if (dir !== "/" && !mp.FS.analyzePath(dir).exists) mp.FS.mkdir(dir);
  mp.FS.writeFile(dest, fs.readFileSync(host));
}
try {
  mp.runPython("import sys\nsys.path.insert(0, '/lib')\nsys.path.insert(0, '/sim')\n");
  mp.runPython(fs.readFileSync(script, "utf8"));
} catch (err) {
  process.stderr.write(String(err.message || err) + "\n");
  process.exit(1);
}
