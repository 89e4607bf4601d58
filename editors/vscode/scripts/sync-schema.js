// Copies the committed draft-07 schema of the repository into the extension (`schemas/`), where
// Even Better TOML reads it through `contributes.tomlValidation`. A test fails when the copy is stale.
const fs = require("fs");
const path = require("path");

const from = path.join(__dirname, "..", "..", "..", "schemas", "rustkeep.draft-07.schema.json");
const to = path.join(__dirname, "..", "schemas", "rustkeep.draft-07.schema.json");
fs.mkdirSync(path.dirname(to), { recursive: true });
fs.copyFileSync(from, to);
console.log(`copied ${from} -> ${to}`);
