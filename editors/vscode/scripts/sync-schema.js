// Copies the committed draft-07 schemas of the repository (`schemas/`) that the extension maps in
// `contributes.tomlValidation` into the extension's own `schemas/` folder, where Even Better TOML
// reads them. A test (crates/rustkeep-cli/tests/editor_schemas.rs) fails when a copy is stale, and
// `cargo xtask update` rewrites the copies and the mapping as well.
const fs = require("fs");
const path = require("path");

const extension = path.join(__dirname, "..");
const repository = path.join(extension, "..", "..");
const manifest = JSON.parse(fs.readFileSync(path.join(extension, "package.json"), "utf8"));
const files = new Set(manifest.contributes.tomlValidation.map((rule) => path.basename(rule.url)));
fs.mkdirSync(path.join(extension, "schemas"), { recursive: true });
for (const file of files) {
  const from = path.join(repository, "schemas", file);
  const to = path.join(extension, "schemas", file);
  fs.copyFileSync(from, to);
  console.log(`copied ${from} -> ${to}`);
}
