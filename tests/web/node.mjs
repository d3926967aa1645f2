// tests/web/node.mjs WEBDIR [iso] - the files of build/web booted by v86 in
// Node (no browser, the faster check): the same v86 module, BIOS, kernel
// and initrd as the page (or with `iso`, spindle.iso through GRUB), the
// same session as the browser test (tests/web/session.mjs), typed straight
// into COM1. Prints PASS/FAIL lines (web/node.* or web/node_iso.*) and, on
// a failure, the console's last lines.
import fs from "node:fs";
import path from "node:path";
import { SESSION, checkSession } from "./session.mjs";
import { HALTED } from "../../web/status.mjs";

const web = path.resolve(process.argv[2]);
const iso = process.argv[3] === "iso";
const name = iso ? "web/node_iso" : "web/node";
const { V86 } = await import(path.join(web, "v86/libv86.mjs"));
const file = f => {
    const b = fs.readFileSync(path.join(web, f));
    return { buffer: b.buffer.slice(b.byteOffset, b.byteOffset + b.length) };
};

const TIMEOUT = iso ? 90000 : 60000;
const t0 = Date.now();
let out = "", seen = 0, typed = 0, done = false;

const emu = new V86({
    wasm_path: path.join(web, "v86/v86.wasm"),
    bios: file("bios/bios.bin"),
    vga_bios: file("bios/vgabios-stdvga.bin"),
    ...(iso ? { cdrom: file("spindle.iso") } :
        { multiboot: file("kernel.elf"), initrd: file("initrd.cpio"), cmdline: "" }),
    memory_size: 128 * 1024 * 1024,      // as the page
    autostart: true,
    disable_keyboard: true,
    disable_mouse: true,
});

function finish(timedOut) {
    if (done)
        return;
    done = true;
    let failed = 0;
    const results = timedOut ?
        [["session", "timeout after " + TIMEOUT / 1000 + " s"]] : checkSession(out);
    if (iso && !timedOut)
        results.push(["grub", /^Spindle 0\.1 booting \(i386, loader: GRUB/m.test(out) ? null
                      : "the banner does not name GRUB as the loader"]);
    for (const [test, err] of results) {
        if (err) failed++;
        console.log((err ? "FAIL " : "PASS ") + name + "." + test + (err ? ": " + err : ""));
    }
    if (failed)
        console.log(out.replace(/\r/g, "").trimEnd().split("\n").slice(-15)
                    .map(l => "    | " + l).join("\n"));
    console.log(name + ": " + ((Date.now() - t0) / 1000).toFixed(1) + " s");
    emu.destroy().finally(() => process.exit(failed ? 1 : 0));
}

emu.add_listener("serial0-output-byte", b => {
    out += String.fromCharCode(b);
    const p = out.indexOf("$ ", seen);
    if (p >= 0 && typed < SESSION.length) {
        seen = p + 2;
        emu.serial0_send(SESSION[typed++] + "\r");
    }
    if (out.includes(HALTED))
        setTimeout(() => finish(false), 200);   // nothing may follow it
});
setTimeout(() => finish(true), TIMEOUT);
