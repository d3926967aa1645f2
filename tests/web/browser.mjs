// tests/web/browser.mjs URL NPM SCREENSHOT - the page of `make web` in
// headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core
// from NPM/node_modules): boots Spindle, waits for the shell's prompt,
// types `tls-demo` and `ps`, checks what they print, types `exit 0` and
// checks the status line; then writes SCREENSHOT (a PNG). Only the page's
// test interface, window.spindle (docs/web.md), and what a person sees
// (the status line, the terminal) are used.
//
// Prints PASS/FAIL lines as tests/run.py reads them (web/chromium.*), and
// the console's last lines on a failure.
import path from "node:path";
import { createRequire } from "node:module";
import { checkSession, SESSION } from "./session.mjs";

const [url, npm, shot] = process.argv.slice(2);
const require = createRequire(path.resolve(npm, "package.json"));
const { chromium } = require("playwright-core");

const TIMEOUT = 60000;
const t0 = Date.now();
const secs = () => ((Date.now() - t0) / 1000).toFixed(1) + " s";
let page;

async function text() { return page.evaluate(() => window.spindle.text()); }

async function waitFor(what, pred) {
    const end = Date.now() + TIMEOUT;
    for (;;) {
        const t = await text();
        if (pred(t))
            return t;
        if (Date.now() > end)
            throw new Error("timeout waiting for " + what + " after " + secs() +
                            "; console ends:\n" + t.split("\n").slice(-12).map(l => "    | " + l).join("\n"));
        await new Promise(r => setTimeout(r, 100));
    }
}

let browser, failed = 0;
const report = (name, err) => {
    if (err) { failed++; console.log("FAIL web/chromium." + name + ": " + err); }
    else console.log("PASS web/chromium." + name);
};
try {
    browser = await chromium.launch({
        executablePath: "/usr/bin/chromium",
        // As root in a container Chromium's sandbox cannot start.
        args: ["--no-sandbox", "--disable-dev-shm-usage"],
    });
    page = await browser.newPage({ viewport: { width: 1190, height: 760 } });
    const errors = [];
    page.on("pageerror", e => errors.push(String(e)));
    await page.goto(url, { waitUntil: "load" });
    await page.waitForFunction(() => window.spindle, null, { timeout: TIMEOUT });
    report("page_loads", errors.length ? errors.join("; ") : null);

    // The session, typed at each prompt (tests/web/session.mjs).
    let seen = 0;
    for (const line of SESSION) {
        const t = await waitFor("the prompt", t => t.indexOf("$ ", seen) >= 0);
        seen = t.indexOf("$ ", seen) + 2;
        // Typed as a person would: into the terminal, key by key.
        await page.click("#terminal");
        await page.keyboard.type(line);
        await page.keyboard.press("Enter");
    }
    const out = await waitFor("the end", t => /^init exited with status/m.test(t));
    for (const [name, err] of checkSession(out))
        report(name, err);
    await page.waitForFunction(
        () => document.getElementById("status").textContent.includes("the machine is halted"),
        null, { timeout: 10000 }).catch(() => {});
    const status = await page.textContent("#status");
    report("status_line", /^init exited with status 0; the machine is halted/.test(status) ? null
           : "status line says " + JSON.stringify(status));
    report("no_page_errors", errors.length ? errors.join("; ") : null);
    console.log("web/chromium: the session took " + secs());

    // The Reboot button, and the picture for the
    // README: a fresh boot, at the shell, after a tls-demo and a ps
    // (docs/web-screenshot.png is one of these).
    await page.click("#reboot");
    seen = 0;
    for (const line of ["tls-demo", "ps"]) {
        const t = await waitFor("the prompt", t => t.indexOf("$ ", seen) >= 0);
        seen = t.indexOf("$ ", seen) + 2;
        await page.evaluate(s => window.spindle.send(s), line + "\r");
    }
    const again = await waitFor("the prompt", t => t.indexOf("$ ", seen) >= 0);
    report("reboot", again.split("Spindle 0.1 booting").length === 2 &&
           !again.includes("init exited") ? null : "the console after Reboot is not one fresh boot");
    await new Promise(r => setTimeout(r, 300));         // the last frame drawn
    await page.screenshot({ path: shot });
    console.log("web/chromium: screenshot " + shot);
} catch (e) {
    report("session", String(e.message || e));
} finally {
    if (browser)
        await browser.close();
}
process.exit(failed ? 1 : 0);
