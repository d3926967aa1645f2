// tests/web/session.mjs - the shell session both web tests type (in Node
// with v86 alone, and in Chromium through the page) and what its output
// must show: the checks name each thing a failure means.
import { consoleState, BANNER, HALTED } from "../../web/status.mjs";

export const SESSION = ["tls-demo", "ps", "exit 0"];

const TLS_LINE = /^thread (\d): %gs=0x33 \(entry 6\) base=(0x[0-9a-f]{8}) &counter=0x[0-9a-f]{8} counter=(\d)$/gm;

// [[name, null or the reason it failed], ...] for a console text.
export function checkSession(text) {
    text = text.replace(/\r/g, "");
    const r = [];
    const check = (name, ok, why) => r.push([name, ok ? null : why]);

    check("boots", text.includes(BANNER) && /^initrd: \d+ files$/m.test(text),
          "no boot banner and initrd line");
    check("one_cpu_8259", /^smp: no local APIC in xAPIC mode: one CPU, 8259 PICs$/m.test(text),
          "no line saying the kernel took the one-CPU 8259 path");
    const tls = [...text.matchAll(TLS_LINE)];
    const bases = new Set(tls.map(m => m[2]));
    check("tls_demo", /^tls-demo: 4 threads and main; one selector, a base each$/m.test(text) &&
          tls.length === 4 && bases.size === 4 &&
          /^main    : %gs=0x33 \(entry 6\) base=0x[0-9a-f]{8} .*counter=0$/m.test(text),
          "tls-demo did not show 4 threads on one selector with 4 different bases (" +
          tls.length + " thread lines, " + bases.size + " bases)");
    check("ps", /^TID TGID PPID STATE CPU EXITSIG COMM/m.test(text) &&
          /^\s+1\s+1\s+0 \S+\s+0\s+17 init /m.test(text) &&
          /^\s+\d+\s+\d+\s+1 \S+\s+0\s+17 sh /m.test(text) &&
          /^\s+\d+\s+\d+\s+\d+ R\s+0\s+17 ps /m.test(text),
          "ps did not list init, sh and itself (running) on cpu 0");
    const st = consoleState(text);
    check("init_exit", st.state === "exited" && st.status === 0,
          "no 'init exited with status 0' (state " + st.state + ")");
    check("halted_last", text.trimEnd().endsWith(HALTED) && !text.includes("PANIC"),
          "the last line is not '" + HALTED + "'");
    return r;
}
