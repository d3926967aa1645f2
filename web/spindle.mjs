// web/spindle.mjs - the page: Spindle booted in v86 (the x86 PC emulator
// in WebAssembly), its COM1 on an xterm.js terminal, a status line, and
// the boot options. docs/web.md describes it and its test interface,
// window.spindle.
import { V86 } from "./v86/libv86.mjs";
import { Terminal } from "./xterm/xterm.mjs";
import { consoleState } from "./status.mjs";

// The boot options: the page's URL may set them (?init=/bin/sh&boot=iso),
// so a course can link straight to one program.
const DEFAULTS = { boot: "multiboot", init: "/bin/init", append: "" };
const MEMORY_MB = 128;          // as `make run` (abi.md: 32 to 896 MiB)

const $ = id => document.getElementById(id);
const term = new Terminal({
    cols: 90, rows: 32, scrollback: 5000, cursorBlink: true, lineHeight: 1.1,
    fontFamily: "'DejaVu Sans Mono', 'Liberation Mono', Menlo, Consolas, monospace",
    fontSize: 14,
    theme: { background: "#10161d", foreground: "#d8dee6", cursor: "#f0b429" },
});
term.open($("terminal"));

let emulator = null;
let consoleText = "";           // every byte COM1 sent this boot, as text
let decoder = new TextDecoder(); // UTF-8, across batches
let pending = [];               // bytes not yet written to the terminal
let started = 0;               // when this boot began
let bootSecs = "";              // how long it took to reach "running"
let lastState = "";

function setStatus(s) {
    const el = $("status");
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    if (s.state !== "firmware" && s.state !== "booting" && !bootSecs)
        bootSecs = secs;
    el.textContent = s.text + (s.state === "firmware" || s.state === "booting" ?
        " (" + secs + " s)" : s.state === "running" ? " (booted in " + bootSecs + " s)" : "");
    el.dataset.state = s.state;
    if (s.state !== lastState) {
        lastState = s.state;
        document.title = "Spindle: " + s.text;
    }
}

// COM1's bytes arrive one at a time; the terminal gets them in batches,
// once a frame, which keeps a burst (ps, a boot) fast.
function flush() {
    if (!pending.length)
        return;
    const bytes = Uint8Array.from(pending);
    pending = [];
    term.write(bytes);
    consoleText += decoder.decode(bytes, { stream: true });
    setStatus(consoleState(consoleText));
}

function options() {
    return {
        boot: $("boot").value,
        init: $("init").value.trim() || DEFAULTS.init,
        append: $("append").value.trim(),
    };
}

function cmdline(o) {
    const words = [];
    if (o.init !== DEFAULTS.init)
        words.push("init=" + o.init);
    if (o.append)
        words.push(o.append);
    return words.join(" ");
}

async function boot(o = options()) {
    // The new boot's console starts now, before the old machine is gone.
    const old = emulator;
    emulator = null;
    term.reset();
    consoleText = "";
    decoder = new TextDecoder();
    pending = [];
    started = performance.now();
    bootSecs = "";
    lastState = "";
    if (old)
        await old.destroy();
    const disk = o.boot === "iso" ?
        { cdrom: { url: "spindle.iso" } } :
        { multiboot: { url: "kernel.elf" }, initrd: { url: "initrd.cpio" },
          cmdline: cmdline(o) };
    $("cmdline").textContent = o.boot === "iso" ?
        "GRUB's menu (boot/grub.cfg)" : "kernel.elf " + cmdline(o);
    setStatus({ state: "firmware", text: "loading the emulator" });
    const emu = new V86({
        wasm_path: "v86/v86.wasm",
        bios: { url: "bios/bios.bin" },
        vga_bios: { url: "bios/vgabios-stdvga.bin" },
        memory_size: MEMORY_MB * 1024 * 1024,
        autostart: true,
        disable_keyboard: true,
        disable_mouse: true,
        disable_speaker: true,
        ...disk,
    });
    emulator = emu;
    emu.add_listener("serial0-output-byte", b => {
        if (emu !== emulator)
            return;
        if (!pending.length)
            requestAnimationFrame(flush);
        pending.push(b);
    });
    emu.add_listener("emulator-ready", () => {
        if (emu === emulator)
            setStatus(consoleState(consoleText));
    });
    history.replaceState(null, "", "?" + new URLSearchParams(
        Object.entries(o).filter(([k, v]) => v !== DEFAULTS[k])).toString());
    term.focus();
}

// Keys and pastes go to COM1 as the bytes a terminal sends (xterm.js
// turns the cursor keys into escape sequences, Enter into CR).
term.onData(d => emulator && emulator.serial0_send(d));

// A second's tick keeps the elapsed time on the status line moving.
setInterval(() => emulator && setStatus(consoleState(consoleText)), 1000);

$("reboot").addEventListener("click", () => boot());
$("options").addEventListener("submit", e => { e.preventDefault(); boot(); });
$("boot").addEventListener("change", () => {
    const iso = $("boot").value === "iso";
    $("init").disabled = $("append").disabled = iso;
});

// The test interface (docs/web.md): the console text so far, typing, and
// the status line, for tests/web/ and anyone scripting the page.
window.spindle = {
    text: () => { flush(); return consoleText.replace(/\r/g, ""); },
    send: s => { if (emulator) emulator.serial0_send(s); return !!emulator; },
    status: () => { flush(); return consoleState(consoleText); },
    boot: o => boot({ ...DEFAULTS, ...o }),
};

const params = new URLSearchParams(location.search);
for (const k of Object.keys(DEFAULTS))
    if (params.has(k))
        $(k).value = params.get(k);
$("boot").dispatchEvent(new Event("change"));
boot();
