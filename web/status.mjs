// web/status.mjs - what the console says about the machine, for the page's
// status line and for the tests (tests/web/), which use this very file.
//
// The kernel's lines it knows (kernel/banner.c, kernel/exit.c,
// kernel/panic.c, arch/i386/power.c):
//   "Spindle 0.1 booting (i386, loader: ...)"       the kernel has started
//   "initrd: N files"                               the userland is there
//   "init exited with status N"                     pid 1 has gone
//   "PANIC: ..."                                    the kernel stopped
//   "spindle: no power-off device: the machine is halted"
//                                                   the last line under v86

export const BANNER = "Spindle 0.1 booting";
export const HALTED = "spindle: no power-off device: the machine is halted";

// The state of a machine from its console text so far:
//   { state: "firmware" | "booting" | "running" | "exited" | "panic",
//     status: N (state "exited"), halted: true once the last line is out,
//     text: a sentence for the status line }
export function consoleState(text) {
    text = text.replace(/\r/g, "");
    const exited = /^init exited with status (\d+)(.*)$/m.exec(text);
    const panic = /^PANIC: (.*)$/m.exec(text);
    const halted = text.includes(HALTED);
    if (panic)
        return { state: "panic", halted,
                 text: "kernel panic: " + panic[1].trim() + " (see the console)" };
    if (exited) {
        const status = Number(exited[1]);
        return { state: "exited", status, halted,
                 text: "init exited with status " + status + exited[2] +
                       (halted ? "; the machine is halted" : "") };
    }
    if (/^initrd: \d+ files$/m.test(text))
        return { state: "running", halted, text: "running" };
    if (text.includes(BANNER))
        return { state: "booting", halted, text: "booting the kernel" };
    return { state: "firmware", halted, text: "booting (BIOS and loader)" };
}
