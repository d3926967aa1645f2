// tools/mkweb_docs.mjs NPM OUTDIR FILE.md... - the docs as HTML pages for
// build/web (tools/mkweb.sh), with marked from NPM/node_modules, and an
// index.html of them. Links to
// another of the pages (docs/x.md, x.md, README.md) become links to its
// .html, and images under docs/ are looked for beside the pages (where
// tools/mkweb.sh copies them); every other link is kept as it is.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const [npm, outdir, ...files] = process.argv.slice(2);
const require = createRequire(path.resolve(npm, "package.json"));
const { marked } = require("marked");

const names = new Set(files.map(f => path.basename(f, ".md")));
const local = href => {
    const m = /^(?:\.\.\/|docs\/)?([\w.-]+)\.md(#.*)?$/.exec(href);
    return m && names.has(m[1]) ? m[1] + ".html" + (m[2] || "") : null;
};
const escape = s => s.replace(/[&<>"]/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

marked.use({
    walkTokens(t) {
        if (t.type === "link" && local(t.href))
            t.href = local(t.href);
        if (t.type === "image")             // docs/x.png sits beside the pages
            t.href = t.href.replace(/^docs\//, "");
    },
});

const page = (title, nav, body) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>
body { max-width: 820px; margin: 20px auto; padding: 0 16px;
       font: 16px/1.5 system-ui, "DejaVu Sans", sans-serif; color: #1d2630; }
pre { background: #f2f4f6; padding: 10px; overflow-x: auto; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 14px; }
table { border-collapse: collapse; } td, th { border: 1px solid #ccd3da; padding: 2px 8px; }
nav { font-size: 14px; margin-bottom: 12px; }
img { max-width: 100%; }
</style></head><body>
<nav><a href="../index.html">&larr; back to the machine</a>${nav}</nav>
${body}
</body></html>
`;

// Each page, and index.html listing them all by their titles, so a doc
// added to docs/ shows up on the page without a change to it.
const index = [];
for (const f of files) {
    const md = fs.readFileSync(f, "utf8");
    const title = (/^# (.*)$/m.exec(md) || [, path.basename(f)])[1].replace(/`/g, "");
    const html = page(title, ` &middot; <a href="index.html">all the docs</a> &middot; ${escape(f)}`,
                      marked.parse(md));
    const out = path.basename(f, ".md") + ".html";
    fs.writeFileSync(path.join(outdir, out), html);
    index.push(`<li><a href="${out}">${escape(title)}</a> (${escape(f)})</li>`);
}
fs.writeFileSync(path.join(outdir, "index.html"),
                 page("Spindle's docs", "", "<h1>Spindle's docs</h1>\n<ul>\n" +
                      index.join("\n") + "\n</ul>"));
